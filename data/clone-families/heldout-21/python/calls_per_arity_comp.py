from collections import Counter

entries = context.get("conversation_history") or []
sizes = Counter(len(entry.get("args") or []) for entry in entries if entry.get("method_name"))
result = dict(sorted(sizes.items()))
