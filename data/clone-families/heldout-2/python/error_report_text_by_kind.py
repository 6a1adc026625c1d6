header = "Error report for " + str(context.get("session_id", "session"))
report = {}
for item in conversation_history:
    summary = item.get("outcome_summary")
    if summary is None:
        continue
    if summary.get("ok"):
        continue
    kind = summary.get("error_type") or "unknown"
    if kind not in report:
        report[kind] = []
    report[kind].append(item.get("call_id"))
lines = [header] + [f"{k}: {', '.join(map(str, v))}" for k, v in report.items()]
result = "\n".join(lines)
