history = Array(context[:conversation_history])
children = {}
history.each do |record|
  parent = record[:parent_call_id]
  role = record[:role]
  next if parent.nil? || parent == "" || role.nil? || role == ""

  children[parent] ||= []
  children[parent] << record[:call_id]
end
children
