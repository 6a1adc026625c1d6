def succeeded(entry):
    summary = entry.get("outcome_summary") or {}
    return summary.get("ok") is True


def first_failure(entries):
    for e in entries:
        if not succeeded(e):
            return e
    return None


items = context.get("conversation_history", [])
cut = 0
for n, item in enumerate(items):
    if succeeded(item):
        cut = n + 1

hit = first_failure(items[cut:])
result = {"first_error_after_last_success": hit and hit["call_id"], "type": hit and hit["outcome_summary"]["error_type"], "checked": len(items) - cut}
