history = context["conversation_history"]
best = {}
for entry in history:
    for key, value in (entry.get("kwargs") or {}).items():
        if isinstance(value, (int, float)) and value is not True and value is not False:
            row = best.setdefault(key, {"key": key, "max": value, "call_id": entry.get("call_id")})
            if value > row["max"]:
                row["max"], row["call_id"] = value, entry.get("call_id")
result = sorted(best.values(), key=lambda row: row["key"])
