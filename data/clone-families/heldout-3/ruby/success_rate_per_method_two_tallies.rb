log = context[:conversation_history] || []
successes = log.select { |r| r.dig(:outcome_summary, :ok) }.map { |r| r[:method_name] }.tally
totals = log.map { |r| r[:method_name] }.tally
result = totals.map { |m, n| "#{m}: #{(100.0 * successes.fetch(m, 0) / n).round}%" }.join("; ")
