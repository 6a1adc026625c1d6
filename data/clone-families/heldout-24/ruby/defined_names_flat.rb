def_re = /^\s*def\s+([A-Za-z_]\w*[?!]?)/
entries = context.fetch(:conversation_history, nil) || []
replies = entries.select { |entry| entry[:role] == "assistant" && entry[:content].is_a?(String) }
defs = replies.flat_map { |reply| reply[:content].scan(def_re).flatten }
defs.uniq
