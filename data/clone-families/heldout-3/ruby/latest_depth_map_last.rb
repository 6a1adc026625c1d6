history = context[:conversation_history] || []
result = history.map { |rec| rec[:depth] || 0 }.last || 0
