history = context[:conversation_history] || []
pairs = history.map { |h| [h[:need], h[:goal]] }
               .select { |need, goal| need.is_a?(String) && !need.empty? && goal.is_a?(String) && !goal.empty? }
               .uniq
pairs.group_by(&:first)
     .map { |need, ps| { need: need, goals: ps.map(&:last).sort, goal_count: ps.size } }
     .select { |row| row[:goal_count] >= 2 }
     .sort_by { |row| [-row[:goal_count], row[:need]] }
