log = context[:conversation_history] || []
recent = log.reverse.take_while { |entry| entry[:role] != "user" }.reverse
messages = recent.select { |entry| !entry.dig(:outcome_summary, :ok) }
                 .map { |entry| entry.dig(:outcome_summary, :error_message).to_s }
messages.empty? ? "No errors since the user's last message." : "Errors since the user's last message:\n- " + messages.join("\n- ")
