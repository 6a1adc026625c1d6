def role_stats(records):
    stats = {}
    for rec in records:
        role, body = rec.get("role"), rec.get("content")
        if not role or type(body) is not str:
            continue
        entry = stats.setdefault(role, {"messages": 0, "chars": 0})
        entry["messages"] += 1
        entry["chars"] += len(body)
    return stats


history = context.get("conversation_history") or []
result = [
    {
        "role": role,
        "messages": s["messages"],
        "total_chars": s["chars"],
        "mean_chars": round(s["chars"] / s["messages"], 2),
    }
    for role, s in sorted(role_stats(history).items())
]
