history = context[:conversation_history] || []
history.each_cons(2).select { |a, b| a[:depth] != b[:depth] }.map { |_, b| b[:call_id] }
