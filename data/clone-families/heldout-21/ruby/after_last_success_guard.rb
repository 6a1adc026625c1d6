history = context.fetch(:conversation_history, nil) || []
tail = []
last_ok = history.rindex { |record| record.is_a?(Hash) && record[:outcome_summary].is_a?(Hash) && record[:outcome_summary][:ok] == true }
tail = history[(last_ok + 1)..] unless last_ok.nil? || last_ok + 1 >= history.size
rows = tail.map { |record| [record[:call_id], record[:content]] }
Agent::Outcome.ok(rows)
