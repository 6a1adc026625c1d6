history = context.fetch(:conversation_history, nil) || []
longest = {}
history.each do |record|
  summary = record.dig(:outcome_summary, :summary)
  name = record[:method_name]
  next if name.to_s.empty? || record.dig(:outcome_summary, :ok) != true || !summary.is_a?(String)

  best = longest[name]
  longest[name] = { id: record[:call_id], chars: summary.length } if best.nil? || summary.length > best[:chars]
end
longest
