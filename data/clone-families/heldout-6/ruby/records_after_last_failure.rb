history = context[:conversation_history] || []
last_bad = history.rindex { |r| !r.dig(:outcome_summary, :ok) }
last_bad ? history.size - last_bad - 1 : history.size
