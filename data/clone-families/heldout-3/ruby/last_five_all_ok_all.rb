history = context[:conversation_history] || []
recent = history.last(5)
result = recent.all? { |rec| rec.dig(:outcome_summary, :ok) == true }
