history = context.get("conversation_history") or []
k, v = kwargs.get("key", "lang"), kwargs.get("value")
matching = list(filter(lambda rec: k in (rec.get("kwargs") or {}) and rec["kwargs"][k] == v, history))
ids = ", ".join(rec["call_id"] for rec in matching)
f"{len(matching)} calls passed {k}={v!r}: {ids}" if matching else f"no calls passed {k}={v!r}"
