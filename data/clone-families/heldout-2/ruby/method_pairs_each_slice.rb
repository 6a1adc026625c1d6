history = context[:conversation_history] || []
names = history.map { |r| r[:method_name] }.compact
result = names.each_slice(2).select { |s| s.size == 2 }
