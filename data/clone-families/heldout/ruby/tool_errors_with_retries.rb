memory = context[:memory] || {}
retries = memory[:retries].to_i

history = context[:conversation_history] || []
bad = history.select do |rec|
  next false unless rec[:speaker] == "tool"
  rec[:outcome_summary][:status] == "error"
end
bad_ids = bad.map { |rec| rec[:call_id] }
result = { retries: retries, failed_tool_calls: bad_ids }
Agent::Outcome.ok(result)
