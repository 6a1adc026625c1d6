history = context[:conversation_history] || []
by_method = history.each_with_object(Hash.new { |h, k| h[k] = [] }) do |step, acc|
  m = step[:method_name].to_s
  next if m.empty?

  acc[m] << step[:call_id] if (step[:args] || []).any? { |x| x.is_a?(Numeric) && x.negative? }
end
Agent::Outcome.ok(by_method)
