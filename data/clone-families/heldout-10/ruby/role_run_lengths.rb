history = context[:conversation_history] || []
runs = []
current = nil
history.each do |rec|
  if current && current[0] == rec[:role]
    current[1] += 1
  else
    current = [rec[:role], 1]
    runs << current
  end
end
runs
