calls = (context[:conversation_history] || []).reject { |r| r[:method_name].to_s.empty? }
spread = {}
calls.each do |call|
  d = call[:depth]
  next unless d.is_a?(Integer)

  entry = spread[call[:method_name]] ||= { depths: [], calls: 0 }
  entry[:depths] |= [d]
  entry[:calls] += 1
end
spread.each_value { |e| e.merge!(min: e[:depths].min, max: e[:depths].max) }
Agent::Outcome.ok(spread.select { |_m, e| e[:depths].size >= 2 })
