history = context.get("conversation_history") or []


def succeeded(rec):
    summary = rec.get("outcome_summary")
    return isinstance(summary, dict) and summary.get("ok") is True


per_method = {}
for rec in history:
    if rec.get("method_name") and succeeded(rec):
        per_method.setdefault(rec["method_name"], []).append(
            (rec.get("call_id"), rec["outcome_summary"].get("value_class") or None)
        )

switches = []
for method, seq in per_method.items():
    for (_, before), (call_id, after) in zip(seq, seq[1:]):
        if before != after:
            switches.append({"call_id": call_id, "method": method, "from": before, "to": after})

result = switches
