history = context[:conversation_history] || []
history.each_cons(2).select do |prev, r|
  r[:depth] != prev[:depth] + 1
end.map { |_, r| r[:call_id] }
