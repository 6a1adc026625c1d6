query = kwargs[:query].to_s.downcase
history = context[:conversation_history] || []
hits = history.select { |rec| rec[:content].to_s.downcase.include?(query) }
result = hits.map { |rec| rec[:call_id] }
