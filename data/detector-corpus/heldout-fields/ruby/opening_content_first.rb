history = context[:conversation_history] || []
opening = history.first(3)
result = opening.map { |r| r[:content] }.compact.join(" ")
