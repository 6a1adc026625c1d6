history = context.fetch(:conversation_history, nil) || []
hits = history.select do |record|
  record[:role] == "tool" && record[:content].is_a?(String) && record[:content].match?(/\bnot found\b/i)
end
hits.map { |record| [record[:call_id], record[:content]] }
