history = context.fetch(:conversation_history, nil) || []
ratios = []
history.each_with_index do |rec, i|
  reply = history[i + 1]
  next unless rec[:role] == "user" && reply && reply[:role] == "assistant"
  next unless rec[:content].is_a?(String) && reply[:content].is_a?(String)
  next if rec[:content].empty?

  ratios << [rec[:call_id], (reply[:content].length.to_f / rec[:content].length).round(2)]
end
ratios
