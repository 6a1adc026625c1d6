history = context[:conversation_history] || []
per_call = history.map do |call|
  [call[:call_id], (call[:kwargs] || {}).keys.select { |k| call[:kwargs][k].is_a?(TrueClass) }]
end
totals = {}
per_call.each do |_id, keys|
  keys.each { |k| totals[k] = (totals[k] || 0) + 1 }
end
{ flags: totals, calls_with_flags: per_call.count { |_id, keys| keys.any? } }
