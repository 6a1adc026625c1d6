def is_failure(rec):
    summary = rec.get("outcome_summary") or {}
    return not summary.get("ok", False)


def retried_later(records, position):
    target = records[position].get("method_name")
    for other in records[position + 1:]:
        if other.get("method_name") == target:
            return True
    return False


records = context.get("conversation_history") or []
failed_positions = [i for i, r in enumerate(records) if r.get("method_name") and is_failure(r)]
dropped = [records[i]["call_id"] for i in failed_positions if not retried_later(records, i)]
result = {"unretried": dropped, "failures": len(failed_positions)}
