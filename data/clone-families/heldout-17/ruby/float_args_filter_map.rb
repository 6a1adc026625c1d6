log = context.fetch(:conversation_history, nil) || []
with_floats = log.filter_map do |r|
  next unless r[:method_name].is_a?(String) && !r[:method_name].empty?

  floats = (r[:args] || []).select { |x| x.instance_of?(Float) }
  [r[:call_id], floats] unless floats.empty?
end
Agent::Outcome.ok(with_floats)
