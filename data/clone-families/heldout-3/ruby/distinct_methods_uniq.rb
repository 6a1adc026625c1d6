history = context[:conversation_history] || []
result = history.map { |rec| rec[:method_name] }.compact.uniq
