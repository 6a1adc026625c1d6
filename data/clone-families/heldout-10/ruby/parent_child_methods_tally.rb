records = context[:conversation_history] || []
index = records.to_h { |r| [r[:call_id], r] }
links = records.filter_map do |r|
  up = index[r[:parent_call_id]]
  next if up.nil?
  next if up[:method_name].nil? || up[:method_name].empty? || r[:method_name].nil? || r[:method_name].empty?
  [up[:method_name], r[:method_name]]
end
Agent::Outcome.ok(links.tally)
