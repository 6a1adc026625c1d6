records = context[:conversation_history] || []
counts = records.map { |r| r[:call_id] }.tally
counts.select { |_id, n| n > 1 }.keys
