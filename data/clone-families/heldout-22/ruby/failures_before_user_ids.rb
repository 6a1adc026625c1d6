history = context.fetch(:conversation_history, nil) || []
answered = []
history.each_cons(2) do |record, following|
  next unless record.is_a?(Hash) && following.is_a?(Hash)
  next unless record.dig(:outcome_summary, :ok) == false && following[:role] == "user"

  answered << record[:call_id]
end
answered
