history = context[:conversation_history] || []
opening = history[0..2]
errors = history.count { |r| r.dig(:outcome_summary, :ok) == false }
result = { opening: opening.map { |r| r[:method_name] }, errors: errors }
