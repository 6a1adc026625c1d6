def has_outcome(rec):
    summary = rec.get("outcome_summary", None)
    return isinstance(summary, dict) and len(summary) > 0


lines = []
for rec in conversation_history:
    name = rec.get("method_name") or ""
    if name and not has_outcome(rec):
        lines.append(f"{rec['call_id']} {name}(...) started {rec.get('timestamp')} - no outcome recorded")
"\n".join(lines) if lines else "every call has an outcome"
