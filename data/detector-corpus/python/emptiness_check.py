history = context.get("conversation_history") or []
if not history:
    result = "This is our first interaction."
else:
    result = "Welcome back."
