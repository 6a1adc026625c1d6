history = context.fetch(:conversation_history, nil) || []
last_ok = history.rindex { |record| record.dig(:outcome_summary, :ok) == true }
tail = []
tail = history[(last_ok + 1)..] unless last_ok.nil?
rows = tail.map { |record| [record[:call_id], record[:content]] }
Agent::Outcome.ok(rows)
