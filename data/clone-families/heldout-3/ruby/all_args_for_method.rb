target = kwargs[:method]
history = context[:conversation_history] || []
calls = history.select { |rec| rec[:method_name] == target }
result = calls.map { |rec| { args: rec[:args], kwargs: rec[:kwargs] } }
