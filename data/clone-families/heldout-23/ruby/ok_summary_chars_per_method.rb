history = context.fetch(:conversation_history, nil) || []
total = Hash.new(0)
history.each do |record|
  name = record[:method_name]
  summary = record.dig(:outcome_summary, :summary)
  next if name.to_s.empty? || record.dig(:outcome_summary, :ok) != true || !summary.is_a?(String)

  total[name] += summary.length
end
total
