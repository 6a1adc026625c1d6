history = context.fetch(:conversation_history, nil) || []
user = ->(record) { record[:role] == "user" }
history.each_cons(2)
       .select { |before, after| user.call(before) && user.call(after) }
       .map { |_, after| after[:call_id] }
