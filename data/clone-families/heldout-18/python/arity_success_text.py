def outcome_of(entry):
    summary = entry.get("outcome_summary")
    if not isinstance(summary, dict) or not entry.get("method_name"):
        return None
    return summary.get("ok") if isinstance(summary.get("ok"), bool) else None


history = context.get("conversation_history") or []
buckets = {}
for entry in history:
    ok = outcome_of(entry)
    if ok is None:
        continue
    key = len(entry.get("args") or [])
    buckets.setdefault(key, []).append(ok)

lines = []
for key in sorted(buckets):
    wins = sum(buckets[key])
    lines.append(f"{key} arg(s): {wins}/{len(buckets[key])} succeeded ({wins / len(buckets[key]):.0%})")
result = "\n".join(lines) if lines else "No completed calls to summarise."
