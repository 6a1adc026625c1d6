names = []
history = context.fetch(:conversation_history, nil) || []
history.each { |record|
  next unless record[:role] == "assistant" && record[:content].is_a?(String)

  record[:content].scan(/^\s*def\s+([A-Za-z_]\w*[?!]?)/) { |(name)| names << name }
}
names.uniq
