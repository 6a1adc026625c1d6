history = context[:conversation_history] || []
history.index { |r| !r.dig(:outcome_summary, :ok) } || history.size
