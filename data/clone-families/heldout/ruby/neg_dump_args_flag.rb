term = ((context[:memory] || {})[:search_term] || "invoice").downcase
history = context[:conversation_history] || []
result = history.map { |r| { call_id: r[:call_id], method: r[:method_name], mentions_term: r[:args].to_s.downcase.include?(term) } }
