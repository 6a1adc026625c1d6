log = context[:conversation_history] || []
named = log.select { |e| e[:method_name] && !e[:method_name].empty? }.map { |e| e[:method_name] }
rows = named.each_cons(2).each_with_object(Hash.new(0)) { |pair, acc| acc[pair] += 1 }
             .map { |(from, to), n| { from: from, to: to, count: n } }
Agent::Outcome.ok({ transitions: rows, pairs: [named.size - 1, 0].max })
