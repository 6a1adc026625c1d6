last = (context[:conversation_history] || []).last
result = last ? last.dig(:outcome_summary, :ok) == true : false
