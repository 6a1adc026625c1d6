turns = context[:conversation_history] || []
hits = turns.inject(0) { |acc, t| t[:need].to_s == "" ? acc : acc + 1 }
ratio = turns.size.zero? ? nil : Rational(hits, turns.size)
Agent::Outcome.ok(ratio && ratio.to_f.round(3))
