history = context.fetch(:conversation_history, nil) || []
key_counts = Hash.new(0)
history.each do |record|
  next unless record[:role] == "user" && record[:content].is_a?(String)

  record[:content].scan(/\b([a-z][a-z0-9_]*)=([^\s,;]+)/).each do |key, _value|
    key_counts[key] += 1
  end
end
key_counts
