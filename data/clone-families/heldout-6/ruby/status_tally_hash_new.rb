counts = Hash.new(0)
(context[:conversation_history] || []).each do |record|
  status = record.dig(:outcome_summary, :status)
  counts[status || "missing"] += 1
end
counts
