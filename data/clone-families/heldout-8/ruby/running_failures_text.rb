turns = context[:conversation_history] || []
count = 0
lines = []
turns.each_with_index do |t, i|
  count += 1 if t[:outcome_summary] && !t[:outcome_summary][:ok]
  lines << "##{i + 1} #{t[:call_id]} failures so far: #{count}"
end
Agent::Outcome.ok(lines.join("\n"))
