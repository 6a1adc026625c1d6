history = context.fetch(:conversation_history, nil) || []
longest = {}
history.each do |record|
  name = record[:method_name]
  summary = record.dig(:outcome_summary, :summary)
  next if name.to_s.empty? || record.dig(:outcome_summary, :ok) != true || !summary.is_a?(String)

  best = longest[name]
  longest[name] = { call_id: record[:call_id], length: summary.length } if best.nil? || summary.length > best[:length]
end
longest
