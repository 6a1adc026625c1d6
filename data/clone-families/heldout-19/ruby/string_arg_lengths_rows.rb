history = context[:conversation_history] || []
stats = history.each_with_object({}) do |call, acc|
  next if call[:method_name].nil? || call[:method_name] == ""

  strings = (call[:args] || []).select { |a| a.is_a?(String) }
  next if strings.empty?

  row = (acc[call[:method_name]] ||= { method: call[:method_name], strings: 0, chars: 0 })
  row[:strings] += strings.size
  row[:chars] += strings.sum(&:length)
end
Agent::Outcome.ok(stats.values.map { |row| row.merge(mean_length: (row[:chars].to_f / row[:strings]).round(2)) })
