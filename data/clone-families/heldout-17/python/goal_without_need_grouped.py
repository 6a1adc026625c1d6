from collections import defaultdict

records = context.get("conversation_history") or []
by_goal = defaultdict(list)
for rec in records:
    goal = (rec.get("goal") or "").strip()
    need = (rec.get("need") or "").strip()
    if goal and not need:
        by_goal[rec["goal"]].append(rec.get("call_id"))
result = dict(by_goal)
