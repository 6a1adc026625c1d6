history = context[:conversation_history] || []
last_user = history.rindex { |r| r[:role] == "user" }
tail = last_user ? history[(last_user + 1)..] : history
latest = nil
tail.each { |r| latest = r.dig(:outcome_summary, :error_message) unless r.dig(:outcome_summary, :ok) }
latest
