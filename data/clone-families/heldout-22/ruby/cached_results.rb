history = Array(context[:conversation_history])
cached = []
history.each do |record|
  name = record[:method_name]
  summary = record.dig(:outcome_summary, :summary)
  next if name.to_s.empty? || !summary.is_a?(String)

  cached << record[:call_id] if summary.match?(/\bcache[ds]?\b/i)
end
cached
