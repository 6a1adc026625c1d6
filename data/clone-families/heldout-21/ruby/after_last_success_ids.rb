log = context.fetch(:conversation_history, nil) || []
last_good = log.rindex { |item| item.dig(:outcome_summary, :ok) == true }
tail = []
tail = log[(last_good + 1)..] unless last_good.nil?
rows = tail.map { |item| item[:call_id] }
Agent::Outcome.ok(rows)
