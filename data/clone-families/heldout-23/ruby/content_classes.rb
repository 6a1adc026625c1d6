history = context[:conversation_history] || []
classes = {}
history.each do |record|
  role = record[:role]
  next if role.to_s.empty?

  per_role = (classes[role] ||= Hash.new(0))
  per_role[record[:content].class.name] += 1
end
classes
