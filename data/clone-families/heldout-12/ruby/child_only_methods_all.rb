log = context[:conversation_history] || []
calls = log.reject { |e| e[:method_name].to_s.empty? }
by_method = calls.group_by { |e| e[:method_name] }
nested_only = by_method.select { |_, es| es.all? { |e| !e[:parent_call_id].to_s.empty? } }.keys
Agent::Outcome.ok(nested_only.sort)
