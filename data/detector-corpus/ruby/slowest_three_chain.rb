history = context[:conversation_history] || []
result = history.sort_by { |r| -r[:duration_ms].to_f }.take(3).map { |r| r[:method_name] }
