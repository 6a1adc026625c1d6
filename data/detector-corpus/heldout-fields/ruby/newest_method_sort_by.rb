history = context[:conversation_history] || []
newest = history.sort_by { |r| r[:timestamp] }.last
result = newest ? newest.fetch(:method_name) : nil
