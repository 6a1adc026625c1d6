history = context[:conversation_history] || []
names = history.map { |r| r[:method_name].to_s }
result = names.grep(/^convert/).uniq
