entries = context.fetch(:conversation_history, nil) || []
longest_per_method = {}
entries.each do |entry|
  method_name = entry[:method_name]
  text = entry.dig(:outcome_summary, :summary)
  next if method_name.to_s.empty? || entry.dig(:outcome_summary, :ok) != true || !text.is_a?(String)

  current = longest_per_method[method_name]
  longest_per_method[method_name] = { call_id: entry[:call_id], length: text.length, timestamp: entry[:timestamp] } if current.nil? || text.length > current[:length]
end
longest_per_method
