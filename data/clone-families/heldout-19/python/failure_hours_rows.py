from datetime import datetime

rows = {}
for rec in context["conversation_history"]:
    summary = rec.get("outcome_summary")
    if not rec.get("timestamp") or not summary or summary.get("ok") is None:
        continue
    hour = datetime.strptime(rec["timestamp"][:19], "%Y-%m-%dT%H:%M:%S").hour
    row = rows.setdefault(hour, {"hour": hour, "calls": 0, "failures": 0})
    row["calls"] += 1
    if summary["ok"] is False:
        row["failures"] += 1
for row in rows.values():
    row["failure_rate"] = round(row["failures"] / row["calls"], 2)
result = sorted(rows.values(), key=lambda row: row["hour"])
