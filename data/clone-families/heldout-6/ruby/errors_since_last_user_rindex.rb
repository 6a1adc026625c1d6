history = context[:conversation_history] || []
last_user = history.rindex { |r| r[:role] == "user" }
tail = last_user ? history[(last_user + 1)..] : history
tail.reject { |r| r.dig(:outcome_summary, :ok) }.map { |r| r.dig(:outcome_summary, :error_message) }
