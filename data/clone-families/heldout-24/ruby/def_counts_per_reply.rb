history = context.fetch(:conversation_history, nil) || []
counts = {}
history.each do |record|
  next unless record[:role] == "assistant" && record[:content].is_a?(String)

  found = record[:content].scan(/^\s*def\s+([A-Za-z_]\w*[?!]?)/).size
  counts[record[:call_id]] = found if found.positive?
end
counts
