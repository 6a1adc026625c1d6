history = context[:conversation_history] || []
children = history.reject do |record|
  parent = record[:parent_call_id]
  parent.nil? || parent.to_s.empty?
end
last_child = children.map { |record| [record[:parent_call_id], record[:call_id]] }.to_h
Agent::Outcome.ok(last_child)
