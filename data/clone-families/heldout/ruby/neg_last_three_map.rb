history = context[:conversation_history] || []
closing = history.last(3)
result = closing.map { |r| "#{r[:call_id]} #{r[:method_name]}" }
