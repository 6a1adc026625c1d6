status = {}
for rec in context.get("conversation_history") or []:
    need = rec.get("need")
    if not isinstance(need, str) or not need.strip():
        continue
    ok = (rec.get("outcome_summary") or {}).get("ok") is True
    if ok:
        status[need] = "met"
    else:
        status.setdefault(need, "unmet")

memory = context.get("memory") or {}
result = {
    "unmet": [need for need, state in status.items() if state == "unmet"],
    "remembered_goals": memory.get("goals") or [],
}
