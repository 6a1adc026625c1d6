records = context.fetch(:conversation_history, nil) || []
user_texts = records.select { |item| item[:role] == "user" && item[:content].is_a?(String) }
assignments = user_texts.flat_map do |item|
  item[:content].scan(/\b([a-z][a-z0-9_]*)=([^\s,;]+)/)
end
options = assignments.to_h
options
