entries = context[:conversation_history] || []
parent_depth = entries.each_with_object({}) { |e, h| h[e[:call_id]] = e[:depth].to_i }
flagged = entries.each_with_object([]) do |e, acc|
  pid = e[:parent_call_id]
  next if pid.nil? || pid.empty? || !parent_depth.key?(pid)
  acc << e[:call_id] if e[:depth].to_i != parent_depth[pid] + 1
end
Agent::Outcome.ok({ flagged: flagged, checked: entries.count { |e| parent_depth.key?(e[:parent_call_id]) } })
