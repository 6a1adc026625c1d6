log = context[:conversation_history] || []
index = log.to_h { |e| [e[:call_id], e] }
bad = ->(e) { e.fetch(:outcome_summary, {})[:status] != "ok" }
log.select { |e| bad.(e) && index.key?(e[:parent_call_id]) && bad.(index[e[:parent_call_id]]) }
   .map { |e| "#{e[:call_id]} <- #{e[:parent_call_id]}" }
