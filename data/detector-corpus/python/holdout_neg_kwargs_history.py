history = kwargs.get("history", [])
recent = history[-5:]
result = [h["content"] for h in recent if "error" in h["content"]]
