records = context.get("conversation_history") or []
cid = context.get("call_id")
mem = context.get("memory") or {}

goal_now = ""
for r in reversed(records):
    if r.get("call_id") == cid:
        goal_now = r.get("goal") or ""

ok_same_goal = filter(
    lambda r: goal_now and r.get("goal") == goal_now and (r.get("outcome_summary") or {}).get("ok"),
    records,
)
texts = list(map(lambda r: r["outcome_summary"]["summary"], ok_same_goal))
result = {"goal": goal_now or None, "summaries": texts, "memory_entries": len(mem)}
