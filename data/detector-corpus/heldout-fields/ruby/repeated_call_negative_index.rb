h = context[:conversation_history] || []
a = h[-2]
b = h[-1]
result = a && b && a[:args] == b[:args] && a[:kwargs] == b[:kwargs]
