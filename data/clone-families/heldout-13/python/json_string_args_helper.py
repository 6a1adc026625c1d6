import json


def is_encoded_container(value):
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return False
    try:
        return isinstance(json.loads(value), (dict, list))
    except json.JSONDecodeError:
        return False


calls = [h for h in context.get("conversation_history") or [] if h.get("method_name")]
offenders = [
    {"id": c.get("call_id"), "method": c["method_name"]}
    for c in calls
    if any(is_encoded_container(a) for a in (c.get("args") or []))
]
result = {"count": len(offenders), "calls": offenders}
