history = context[:conversation_history] || []
total = 0
count = 0
history.each do |record|
  total += record[:depth] || 0
  count += 1
end
count.zero? ? nil : total.to_f / count
