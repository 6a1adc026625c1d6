require "set"

calls = Array(context[:conversation_history])
failing = Hash.new { |h, k| h[k] = Set.new }
calls.each do |call|
  next if call[:method_name].nil? || call[:method_name].empty?
  next unless call.dig(:outcome_summary, :ok) == false

  Array(call[:args]).each { |a| failing[a] << call[:call_id] if a.is_a?(String) }
end
failing.transform_values(&:size)
