history = conversation_history or []
n = kwargs.get("n", 3)
idxs = [i for i, r in enumerate(history) if r.get("speaker") == "user"]
chosen = idxs[len(idxs) - n:] if len(idxs) > n else idxs
result = [{"timestamp": history[i].get("timestamp"), "content": history[i].get("content")} for i in chosen]
