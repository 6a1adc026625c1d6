entries = context.fetch(:conversation_history, nil) || []
tail = []
entries.reverse_each do |entry|
  break unless entry[:role] == "tool"

  tail.unshift([entry[:call_id], entry[:content]])
end
tail
