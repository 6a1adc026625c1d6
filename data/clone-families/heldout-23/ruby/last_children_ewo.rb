history = context[:conversation_history] || []
last_child = history.each_with_object({}) do |record, latest|
  next unless record.is_a?(Hash)

  parent = record[:parent_call_id]
  next if parent.nil? || parent.to_s.empty?

  latest[parent] = record[:call_id]
end
Agent::Outcome.ok(last_child)
