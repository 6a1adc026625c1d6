history = context.fetch(:conversation_history, nil) || []
settings = history.each_with_object({}) do |record, found|
  next unless record.is_a?(Hash)
  next unless record[:role] == "user" && record[:content].is_a?(String)

  record[:content].scan(/\b([a-z][a-z0-9_]*)=([^\s,;]+)/).each do |key, value|
    found[key] = value
  end
end
settings
