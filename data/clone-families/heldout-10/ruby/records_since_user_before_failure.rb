history = context[:conversation_history] || []
last_user_at = nil
spacing = []
history.each_with_index do |rec, idx|
  last_user_at = idx if rec[:role] == "user"
  next unless rec.dig(:outcome_summary, :ok) == false
  if last_user_at
    spacing << { call_id: rec[:call_id], records_since_user: idx - last_user_at - 1 }
  end
end
spacing
