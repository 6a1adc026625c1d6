def succeeded(rec):
    info = rec.get("outcome_summary")
    return isinstance(info, dict) and info.get("ok") is True


def looks_degraded(text):
    if not isinstance(text, str):
        return False
    lowered = text.casefold()
    return "warn" in lowered or "partial" in lowered or "truncat" in lowered


degraded = []
for rec in conversation_history:
    if succeeded(rec) and looks_degraded(rec["outcome_summary"].get("summary")):
        degraded.append({"call_id": rec["call_id"], "method": rec.get("method_name"), "status": rec["outcome_summary"].get("status")})
result = degraded
