log = context[:conversation_history] || []

ok_summary = lambda do |entry|
  o = entry[:outcome_summary]
  s = o && o[:ok] == true ? o[:summary] : nil
  s.is_a?(String) && !s.empty? ? s : nil
end

chained = log.each_with_index.select do |entry, i|
  next false if entry[:method_name].nil? || entry[:method_name].empty?
  earlier = log[0...i].map(&ok_summary).compact
  Array(entry[:args]).any? { |a| a.is_a?(String) && earlier.include?(a) }
end
Agent::Outcome.ok(chained.map { |entry, _i| entry[:call_id] })
