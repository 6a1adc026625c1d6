term = ((context[:memory] || {})[:search_term] || "invoice").downcase
history = context[:conversation_history] || []
hits = history.select { |r| r[:args].to_s.downcase.include?(term) }
result = hits.map { |r| { call_id: r[:call_id], method: r[:method_name] } }
