history = context[:conversation_history] || []
result = history.map { |r| r[:method_name] }.tally
