window = (context[:window] || 5).to_i
history = context[:conversation_history] || []
result = history.last(window).map { |r| r.fetch("kwargs", nil) }.compact
