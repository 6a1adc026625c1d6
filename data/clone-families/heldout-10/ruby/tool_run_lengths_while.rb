history = context[:conversation_history] || []
lengths = []
i = 0
while i < history.size
  unless history[i][:role] == "tool"
    i += 1
    next
  end
  j = i
  j += 1 while j < history.size && history[j][:role] == "tool"
  lengths << (j - i)
  i = j
end
lengths.empty? ? "no tool bursts" : "tool bursts: #{lengths.join(', ')}"
