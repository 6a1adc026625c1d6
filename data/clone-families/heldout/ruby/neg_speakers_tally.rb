history = context[:conversation_history] || []
result = history.map { |r| r[:speaker] }.tally
