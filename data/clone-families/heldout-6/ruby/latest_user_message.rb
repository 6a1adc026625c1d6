history = context[:conversation_history] || []
history.reverse_each.find { |r| r[:role] == "user" }&.dig(:content)
