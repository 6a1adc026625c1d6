records = context.fetch(:conversation_history, nil) || []
position = records.each_with_index.to_h { |r, i| [r[:call_id], i] }
hits = records.each_with_index.filter_map do |r, i|
  next if r[:method_name].nil? || r[:method_name].empty?

  named = Array(r[:args]).grep(String).select { |a| position.key?(a) && position[a] < i }
  { call_id: r[:call_id], method: r[:method_name], refers_to: named.uniq } unless named.empty?
end
Agent::Outcome.ok(hits)
