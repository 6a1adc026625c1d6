require "set"

history = context[:conversation_history] || []
per_method = {}
history.each_with_index do |call, idx|
  summary = call[:outcome_summary]
  next unless summary.is_a?(Hash) && summary[:ok] == false

  status = summary[:status]
  next unless status.is_a?(String) && !status.strip.empty?
  next if call[:method_name].to_s.empty?

  (per_method[call[:method_name]] ||= Set.new) << status
end
Agent::Outcome.ok(per_method.transform_values(&:to_a))
