wanted = kwargs[:method]
history = context[:conversation_history] || []

calls = history.select { |rec| rec[:method_name] == wanted }
calls.last && calls.last[:args]
