history = context[:conversation_history] || []
long_calls = history.select do |h|
  !(h[:method_name].nil? || h[:method_name] == "") &&
    (h[:args] || []).count { |a| a.is_a?(String) && a.length > 80 } > 0
end
Agent::Outcome.ok(long_calls.group_by { |h| h[:method_name] }.transform_values { |hs| hs.map { |h| h[:call_id] } })
