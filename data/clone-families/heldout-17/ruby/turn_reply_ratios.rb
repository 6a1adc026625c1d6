history = context.fetch(:conversation_history, nil) || []
ratios = []
history.each_with_index do |rec, i|
  next unless rec[:role] == "user" && rec[:content].is_a?(String)
  next if rec[:content].empty?

  turn = history[(i + 1)..].take_while { |r| r[:role] != "user" }
  replies = turn.select { |r| r[:role] == "assistant" && r[:content].is_a?(String) }
  next if replies.empty?

  ratios << [rec[:call_id], (replies.sum { |r| r[:content].length }.to_f / rec[:content].length).round(2)]
end
ratios
