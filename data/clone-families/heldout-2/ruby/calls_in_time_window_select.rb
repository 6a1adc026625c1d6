from, to = args[0], args[1]
history = context[:conversation_history] || []
inside = history.select { |r| r[:timestamp] && r[:timestamp] >= from && r[:timestamp] <= to }
result = inside.map { |r| r[:call_id] }
