history = context.fetch(:conversation_history, nil) || []
texts = []
history.each do |record|
  next unless record[:role] == "user" && record[:content].is_a?(String)

  texts << [record[:call_id], record[:content].downcase]
end
Agent::Outcome.ok(texts)
