messages = context.fetch(:conversation_history, nil) || []
options = {}
messages.each { |message|
  next unless message[:role] == "user" && message[:content].is_a?(String)

  message[:content].scan(/\b([a-z][a-z0-9_]*)=([^\s,;]+)/).each { |name, setting| options[name] = setting }
}
options
