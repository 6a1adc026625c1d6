history = context[:conversation_history] || []
last_child = {}
history.each do |record|
  parent = record[:parent_call_id]
  next if parent.nil? || parent.to_s.empty?

  last_child[parent] = record[:call_id]
end
Agent::Outcome.ok(last_child)
