history = context.fetch(:conversation_history, nil) || []
calls = []
history.each do |record|
  role = record[:role]
  name = record[:method_name]
  next if role.to_s.empty? || name.to_s.empty?

  calls << record[:call_id] if name.match?(/\A(delete|remove|drop|destroy)/i)
end
Agent::Outcome.ok(calls)
