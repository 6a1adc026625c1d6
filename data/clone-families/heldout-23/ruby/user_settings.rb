history = context.fetch(:conversation_history, nil) || []
settings = {}
history.each do |record|
  next unless record[:role] == "user" && record[:content].is_a?(String)

  record[:content].scan(/\b([a-z][a-z0-9_]*)=([^\s,;]+)/).each do |key, value|
    settings[key] = value
  end
end
settings
