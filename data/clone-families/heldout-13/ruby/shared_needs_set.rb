require "set"

records = context[:conversation_history] || []
index = {}
records.each do |r|
  next if r[:need].nil? || r[:need].empty? || r[:goal].nil? || r[:goal].empty?
  (index[r[:need]] ||= Set.new) << r[:goal]
end
shared = index.reject { |_, goals| goals.size < 2 }
Agent::Outcome.ok(shared.map { |need, goals| [need, goals.to_a.sort] }.to_h)
