log = context[:conversation_history] || []
combos = log.filter_map { |e| [e[:goal].to_s, e[:need].to_s] unless e[:goal].to_s.empty? || e[:need].to_s.empty? }.uniq
combos.map { |g, n| { goal: g, need: n } }
