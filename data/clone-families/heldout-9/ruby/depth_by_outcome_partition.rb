records = context[:conversation_history] || []
good, bad = records.partition { |r| r.dig(:outcome_summary, :ok) }
mean = ->(rs) { rs.empty? ? nil : rs.sum { |r| r[:depth].to_i }.fdiv(rs.size) }
{ ok: mean.(good), failed: mean.(bad) }
