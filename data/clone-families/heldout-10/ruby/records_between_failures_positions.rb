records = context[:conversation_history] || []
positions = records.each_index.select { |i| (records[i][:outcome_summary] || {})[:ok] == false }
gaps = positions.each_cons(2).map { |a, b| [records[b][:call_id], b - a - 1] }
Agent::Outcome.ok(gaps)
