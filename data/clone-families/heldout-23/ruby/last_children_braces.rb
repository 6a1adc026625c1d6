records = context[:conversation_history] || []
newest_child = {}
records.each { |item|
  parent_id = item[:parent_call_id]
  next if parent_id.nil? || parent_id.to_s.empty?

  newest_child[parent_id] = item[:call_id]
}
Agent::Outcome.ok(newest_child)
