methods = Hash.new { |hash, key| hash[key] = [] }
history = context.fetch(:conversation_history, nil) || []
history.each do |record|
  next unless record.is_a?(Hash)

  name = record[:method_name]
  role = record[:role]
  next if role.nil? || name.nil?
  next if role.to_s.empty? || name.to_s.empty?

  methods[role] << name unless methods[role].include?(name)
end
Agent::Outcome.ok(methods.empty? ? {} : methods.transform_values(&:sort))
