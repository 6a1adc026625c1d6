turns = []
for rec in conversation_history:
    if rec.get("role") == "user":
        turns.append([rec])
    elif turns:
        turns[-1].append(rec)


def error_types(records):
    types = set()
    for r in records:
        summary = r.get("outcome_summary") or {}
        if summary.get("ok") is False and summary.get("error_type"):
            types.add(summary["error_type"])
    return types


{turn[0].get("call_id"): sorted(error_types(turn)) for turn in turns if error_types(turn)}
