history = context[:conversation_history] || []
done = []
history.each do |record|
  parent = record[:parent_call_id]
  next if parent.nil? || parent.to_s.empty?

  summary = record.dig(:outcome_summary, :summary)
  done << record[:call_id] if summary.is_a?(String) && summary.match?(/\b(done|completed?)\b/i)
end
Agent::Outcome.ok(done)
