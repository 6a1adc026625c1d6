history = context[:conversation_history] || []
result = history.last(5).map { |r| r[:method_name] }
