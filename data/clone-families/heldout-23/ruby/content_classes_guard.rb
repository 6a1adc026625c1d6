classes = {}
history = context[:conversation_history] || []
history.each do |record|
  next unless record.is_a?(Hash)

  role = record[:role]
  next if role.nil? || role.to_s.empty?

  per_role = (classes[role] ||= Hash.new(0))
  per_role[record[:content].class.name] += 1
end
classes
