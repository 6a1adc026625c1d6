history = context.fetch(:conversation_history, nil) || []
answered = 0
history.each_cons(2) do |record, following|
  next unless record.dig(:outcome_summary, :ok) == false && following[:role] == "user"

  answered += 1
end
answered
