history = context[:conversation_history] || []
matches = history.select { |rec| rec[:args].to_s.downcase.include?("refund") }
result = matches.map { |rec| rec[:call_id] }
