calls = context[:conversation_history] || []
failed = calls.detect { |c| c.dig(:outcome_summary, :ok) == false }
result = failed&.dig(:outcome_summary, :error_message)
