calls = (context[:conversation_history] || []).select do |r|
  r[:method_name].is_a?(String) && !r[:method_name].empty?
end
by_action = calls.group_by { |r| r[:method_name].partition("_").first }
Agent::Outcome.ok(by_action.transform_values(&:size))
