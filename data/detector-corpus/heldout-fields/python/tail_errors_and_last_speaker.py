history = context.get("conversation_history", [])
tail = history[-3:]
errors = []
for rec in tail:
    oc = rec.get("outcome_summary") or {}
    if oc.get("error_type"):
        errors.append(oc["error_type"])
result = {"last_speaker": history[-1]["speaker"], "errors": errors}
