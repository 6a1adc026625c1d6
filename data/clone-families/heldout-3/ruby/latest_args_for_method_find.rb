target = kwargs[:method]
history = context[:conversation_history] || []
latest = history.reverse.find { |rec| rec[:method_name] == target }
result = latest ? { args: latest[:args], kwargs: latest[:kwargs] } : nil
