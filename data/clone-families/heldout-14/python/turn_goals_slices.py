records = context.get("conversation_history") or []
starts = [i for i, r in enumerate(records) if r.get("role") == "user"]
bounds = zip(starts, starts[1:] + [len(records)])

result = {}
for begin, end in bounds:
    chunk = records[begin:end]
    goals = sorted({r.get("goal") for r in chunk if r.get("goal")})
    if goals:
        result[records[begin].get("call_id")] = {"goals": goals, "distinct": len(goals)}
