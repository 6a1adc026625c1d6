history = context.fetch(:conversation_history, nil) || []
answered = []
history.each_cons(2) do |record, following|
  next unless record.dig(:outcome_summary, :ok) == false && following[:role] == "user"

  answered << { failed: record[:call_id], user: following[:call_id] }
end
answered
