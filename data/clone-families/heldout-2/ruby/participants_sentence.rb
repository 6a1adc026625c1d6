records = context[:conversation_history] || []
order = records.each_with_object({}) do |rec, acc|
  s = rec[:speaker]
  acc[s] = true unless s.nil? || acc.key?(s)
end
result = order.empty? ? "No participants yet." : "Participants: #{order.keys.join(', ')}"
