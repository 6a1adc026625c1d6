term = kwargs[:query].to_s.downcase
history = context[:conversation_history] || []

matches = history.select { |r| ([r[:method_name]] + (r[:args] || [])).join(" ").downcase.include?(term) }
result = matches.map { |r| { call_id: r[:call_id], at: r[:timestamp] } }
