records = (context[:conversation_history] || []).reject { |r| r[:goal].nil? || r[:goal].empty? }
runs = records.chunk_while { |a, b| a[:goal] == b[:goal] }.map { |run| run.first[:goal] }
returned = runs.tally.select { |_goal, n| n >= 2 }
returned.map { |goal, n| { goal: goal, stretches: n } }
