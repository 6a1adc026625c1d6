records = context[:conversation_history] || []
rows = records.filter_map do |r|
  next if r[:method_name].nil? || r[:method_name].empty?

  bad = Array(r[:args]).select { |v| (v.is_a?(Integer) || v.is_a?(Float)) && v.negative? }
  { call_id: r[:call_id], method: r[:method_name], negative_args: bad } if bad.any?
end
Agent::Outcome.ok(rows)
