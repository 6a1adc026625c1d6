h = context.get("conversation_history") or []

if not h:
    result = "history is empty"
else:
    max_depth = max(x.get("depth") or 0 for x in h)
    first = next(x for x in h if (x.get("depth") or 0) == max_depth)
    result = f"deepest call {first['call_id']} ({first.get('method_name')}) at depth {max_depth}"
