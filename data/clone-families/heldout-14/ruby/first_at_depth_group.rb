records = context[:conversation_history] || []
firsts = records.select { |r| r[:depth].is_a?(Integer) }.group_by { |r| r[:depth] }.transform_values(&:first)
Agent::Outcome.ok(firsts.keys.sort.map { |d| { depth: d, call_id: firsts[d][:call_id], at: firsts[d][:timestamp] } })
