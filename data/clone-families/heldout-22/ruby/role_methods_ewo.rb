entries = context.fetch(:conversation_history, nil) || []
by_role = entries.each_with_object({}) do |entry, acc|
  kind = entry[:role]
  call = entry[:method_name]
  next if kind.to_s.empty? || call.to_s.empty?

  (acc[kind] ||= []) << call unless (acc[kind] || []).include?(call)
end
Agent::Outcome.ok(by_role.transform_values(&:sort))
