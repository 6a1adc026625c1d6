history = context[:conversation_history] || []
ok_calls = history.filter { |h| h[:outcome_summary][:ok] }
failed = history.length - ok_calls.length
result = "#{failed} of #{history.length} calls failed"
Agent::Outcome.ok(result)
