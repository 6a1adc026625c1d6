conversation_history = context.get("conversation_history", [])
result = f"There are {len(conversation_history)} records in the history."
