def succeeded(rec):
    summary = rec.get("outcome_summary")
    return bool(summary) and summary.get("ok") is True


memory = context.get("memory") or {}
targets = memory.get("goals") or []
history = conversation_history

finished_goals = set()
for rec in history:
    if succeeded(rec) and rec.get("goal"):
        finished_goals.add(rec.get("goal"))

report = {"done": [], "open": []}
for target in targets:
    bucket = "done" if target in finished_goals else "open"
    if target not in report[bucket]:
        report[bucket].append(target)
report["open_count"] = len(report["open"])
result = report
