log = context.fetch(:conversation_history, nil) || []
defined = []
log.each do |item|
  next unless item.is_a?(Hash)
  next unless item[:role] == "assistant" && item[:content].is_a?(String)
  next if item[:content].empty?

  item[:content].scan(/^\s*def\s+([A-Za-z_]\w*[?!]?)/) { |(fn)| defined << fn }
end
defined.uniq
