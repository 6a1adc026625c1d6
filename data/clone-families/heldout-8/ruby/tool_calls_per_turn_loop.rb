history = context[:conversation_history] || []
counts = []
history.each do |rec|
  if rec[:role] == "user"
    counts << 0
  elsif rec[:role] == "tool" && !counts.empty?
    counts[-1] += 1
  end
end
counts
