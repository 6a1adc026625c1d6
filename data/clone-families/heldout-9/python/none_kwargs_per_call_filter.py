records = context.get("conversation_history") or []
pairs = map(lambda r: (r.get("call_id"), [k for k in sorted((r.get("kwargs") or {}).keys()) if r["kwargs"][k] is None]), records)
list(filter(lambda pair: len(pair[1]) > 0, pairs))
