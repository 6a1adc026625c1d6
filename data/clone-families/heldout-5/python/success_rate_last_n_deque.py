from collections import deque

recent = deque(context.get("conversation_history") or [], maxlen=kwargs.get("n", 10))
failures = sum(1 for r in recent if not r.get("outcome_summary", {}).get("ok"))
result = f"{len(recent) - failures}/{len(recent)} recent calls ok" if recent else "no calls yet"
