ctx = context
h = ctx["conversation_history"]
recent = h[-4:]
window = recent
result = len(window)
