from collections import defaultdict

per_class = defaultdict(int)
for entry in conversation_history or []:
    summary = entry.get("outcome_summary") or {}
    if summary.get("status") == "ok":
        per_class[summary.get("value_class") or "unknown"] += 1

lines = [f"{name}: {n}" for name, n in sorted(per_class.items())]
result = "\n".join(lines) if lines else "no successful calls"
