history = context.fetch(:conversation_history, nil) || []
methods = Hash.new { |hash, key| hash[key] = [] }
history.each do |record|
  role = record[:role]
  name = record[:method_name]
  next if role.to_s.empty? || name.to_s.empty?

  methods[role] << name unless methods[role].include?(name)
end
Agent::Outcome.ok(methods.transform_values(&:sort))
