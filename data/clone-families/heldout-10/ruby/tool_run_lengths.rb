history = context[:conversation_history] || []
runs = []
current = 0
history.each do |rec|
  if rec[:role] == "tool"
    current += 1
  else
    runs << current if current > 0
    current = 0
  end
end
runs << current if current > 0
runs
