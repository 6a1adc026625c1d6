print("tip: use context['conversation_history'] to look back")
result = sum(float(a) for a in args)
