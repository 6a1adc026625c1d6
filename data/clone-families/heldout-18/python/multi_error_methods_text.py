failures = [
    (r["method_name"], r["outcome_summary"]["error_type"])
    for r in conversation_history
    if r.get("method_name")
    and isinstance(r.get("outcome_summary"), dict)
    and r["outcome_summary"].get("ok") is False
    and r["outcome_summary"].get("error_type")
]
kinds = {}
for method, etype in failures:
    kinds.setdefault(method, set()).add(etype)

flagged = sorted(m for m in kinds if len(kinds[m]) >= 2)
lines = [f"{m} failed in {len(kinds[m])} different ways: {', '.join(sorted(kinds[m]))}" for m in flagged]
"\n".join(lines) or "Every failing method fails with a single error type."
