history = context[:conversation_history] || []
openings = []
history.each do |record|
  text = record[:content]
  next unless text.is_a?(String)

  openings << [record[:call_id], record[:role], text[0, 60]]
end
Agent::Outcome.ok(openings)
