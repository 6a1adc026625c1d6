history = context[:conversation_history] || []
first = history[0]
result = first ? { goal: first[:goal], need: first[:need] } : {}
