history = context[:conversation_history] || []
names = history.map { |r| r[:method_name] }.compact
result = names.each_cons(2).to_a
