history = context[:conversation_history] || []
result = history.map { |h| h[:method_name] }.tally.sort_by { |_, n| -n }.first(3).to_h
