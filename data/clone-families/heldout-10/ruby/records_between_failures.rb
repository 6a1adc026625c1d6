history = context[:conversation_history] || []
last_failure_at = nil
spacing = []
history.each_with_index do |rec, idx|
  next unless rec.dig(:outcome_summary, :ok) == false
  if last_failure_at
    spacing << { call_id: rec[:call_id], records_since_previous_failure: idx - last_failure_at - 1 }
  end
  last_failure_at = idx
end
spacing
