history = context[:conversation_history] || []
recent = history.last(5)
result = recent.any? { |rec| rec.dig(:outcome_summary, :ok) == true }
