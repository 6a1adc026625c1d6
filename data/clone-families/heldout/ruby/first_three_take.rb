history = context[:conversation_history] || []
opening = history.take(3)
result = opening.map { |r| "#{r[:call_id]} #{r[:method_name]}" }
