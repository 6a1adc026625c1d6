name = kwargs["key"]
value = kwargs["value"]
records = context["conversation_history"]
hits = [
    r["call_id"]
    for r in records
    if isinstance(r.get("kwargs"), dict) and name in r["kwargs"] and r["kwargs"][name] == value
]
result = {"key": name, "value": value, "call_ids": hits, "count": len(hits)}
