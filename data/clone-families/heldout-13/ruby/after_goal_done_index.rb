log = context[:conversation_history] || []
first_success = {}
log.each_with_index do |entry, i|
  g = entry[:goal]
  next if g.nil? || g.empty?
  first_success[g] ||= i if entry.dig(:outcome_summary, :ok) == true
end

extra = log.each_with_index.select do |entry, i|
  g = entry[:goal]
  name = entry[:method_name]
  first_success.key?(g) && i > first_success[g] && name && !name.empty?
end.map { |entry, _| entry[:call_id] }

Agent::Outcome.ok(calls: extra, count: extra.size)
