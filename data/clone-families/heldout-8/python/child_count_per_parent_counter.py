from collections import Counter

history = context.get("conversation_history", [])
children = Counter(r["parent_call_id"] for r in history if r.get("parent_call_id"))
result = dict(children)
