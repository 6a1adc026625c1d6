from = args[0]
history = context[:conversation_history] || []
first_after = history.find { |r| r[:timestamp] && r[:timestamp] >= from }
result = first_after ? first_after[:call_id] : nil
