log = context[:conversation_history] || []
counts = log.filter_map { |r| r[:method_name] }.tally
result = counts.select { |_name, n| n > 1 }.keys.join(", ")
