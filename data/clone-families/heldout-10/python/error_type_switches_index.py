failed = []
for entry in conversation_history:
    summary = entry.get("outcome_summary") or {}
    if summary.get("status", "ok") != "ok":
        failed.append((entry["call_id"], summary.get("error_type") or "unknown"))

lines = []
for i in range(1, len(failed)):
    if failed[i][1] != failed[i - 1][1]:
        lines.append(f"{failed[i][0]}: {failed[i - 1][1]} -> {failed[i][1]}")
result = "\n".join(lines) if lines else "error type never changed"
