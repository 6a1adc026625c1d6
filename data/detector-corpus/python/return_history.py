result = context.get("conversation_history", [])
