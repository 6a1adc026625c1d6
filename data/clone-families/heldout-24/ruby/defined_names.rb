history = context.fetch(:conversation_history, nil) || []
names = []
history.each do |record|
  next unless record[:role] == "assistant" && record[:content].is_a?(String)

  record[:content].scan(/^\s*def\s+([A-Za-z_]\w*[?!]?)/) { |(name)| names << name }
end
names.uniq
