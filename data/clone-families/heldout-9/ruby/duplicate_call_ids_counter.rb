entries = context[:conversation_history] || []
occurrences = Hash.new(0)
entries.each { |e| occurrences[e[:call_id]] += 1 }
result = occurrences.each_with_object([]) do |(cid, n), acc|
  acc << [cid, n] if n >= 2
end
Agent::Outcome.ok(result)
