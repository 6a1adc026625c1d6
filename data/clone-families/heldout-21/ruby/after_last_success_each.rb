entries = context.fetch(:conversation_history, nil) || []
latest_success = nil
entries.each_with_index do |entry, index|
  latest_success = index if entry.dig(:outcome_summary, :ok) == true
end
rows = []
unless latest_success.nil?
  entries[(latest_success + 1)..].each { |entry| rows << [entry[:call_id], entry[:content]] }
end
Agent::Outcome.ok(rows)
