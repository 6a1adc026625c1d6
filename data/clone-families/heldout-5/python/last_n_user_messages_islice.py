from itertools import islice

hist = context.get("conversation_history") or []
k = kwargs.get("n") or 3
newest_first = islice((h for h in reversed(hist) if h.get("speaker") == "user"), k)
rows = [(h["call_id"], h["content"]) for h in newest_first]
result = list(reversed(rows))
