history = context[:conversation_history] || []
history.find { |r| r[:role] == "user" }&.dig(:content)
