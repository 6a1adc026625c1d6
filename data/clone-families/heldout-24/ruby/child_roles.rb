history = Array(context[:conversation_history])
tallies = {}
history.each do |record|
  parent = record[:parent_call_id]
  role = record[:role]
  next if parent.nil? || parent == "" || role.nil? || role == ""

  tallies[parent] ||= Hash.new(0)
  tallies[parent][role] += 1
end
tallies
