payload = {"conversation_history": [], "query": kwargs.get("q", "")}
result = payload
