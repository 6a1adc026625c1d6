turns = context[:conversation_history] || []
vocab = turns.each_with_object({}) do |t, seen|
  case t[:role]
  when "user"
    t[:content].to_s.split.each { |w| seen[w.downcase] = true }
  end
end
Agent::Outcome.ok({ count: vocab.size, sample: vocab.keys.first(5) })
