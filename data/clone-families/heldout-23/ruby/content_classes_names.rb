entries = context[:conversation_history] || []
kinds_by_role = {}
entries.each { |entry|
  role_name = entry[:role]
  next if role_name.to_s.empty?

  tally = (kinds_by_role[role_name] ||= Hash.new(0))
  tally[entry[:content].class.name] += 1
}
kinds_by_role
