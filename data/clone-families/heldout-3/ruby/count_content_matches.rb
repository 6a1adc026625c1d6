query = kwargs[:query].to_s.downcase
history = context[:conversation_history] || []
result = history.count { |rec| rec[:content].to_s.downcase.include?(query) }
