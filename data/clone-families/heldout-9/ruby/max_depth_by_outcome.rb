records = context[:conversation_history] || []
good, bad = records.partition { |r| r.dig(:outcome_summary, :ok) }
deepest = ->(rs) { rs.empty? ? nil : rs.map { |r| r[:depth].to_i }.max }
{ ok: deepest.(good), failed: deepest.(bad) }
