calls = context[:conversation_history] || []
bad = proc { |c| c[:outcome_summary].to_h[:ok] == false }
middle = calls.drop_while { |c| !bad.call(c) }.reverse.drop_while { |c| !bad.call(c) }
Agent::Outcome.ok(middle.count { |c| !bad.call(c) })
