history = context[:conversation_history] || []
per_parent = history.map { |r| r[:parent_call_id] }.reject { |pid| pid.nil? || pid == "" }.tally
only = history.filter_map do |r|
  pid = r[:parent_call_id]
  { call_id: r[:call_id], parent_call_id: pid } if pid && pid != "" && per_parent[pid] == 1
end
Agent::Outcome.ok(only)
