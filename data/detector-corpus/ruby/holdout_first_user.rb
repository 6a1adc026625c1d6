history = context[:conversation_history] || []
users = history.select { |r| r[:speaker] == "user" }
result = users.min_by { |r| r[:timestamp] }&.dig(:args)
