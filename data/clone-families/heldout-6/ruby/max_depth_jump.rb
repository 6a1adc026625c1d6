history = context[:conversation_history] || []
history.each_cons(2).map { |a, b| (b[:depth].to_i - a[:depth].to_i).abs }.max || 0
