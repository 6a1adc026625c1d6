records = context.fetch(:conversation_history, nil) || []
last_ok = records.rindex do |rec|
  rec.dig(:outcome_summary, :ok) == true
end
tail = []
tail = records[(last_ok + 1)..] unless last_ok.nil?
rows = tail.map do |rec|
  [rec[:call_id], rec[:content]]
end
Agent::Outcome.ok(rows)
