import json


def parses_to_structure(text):
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return False
    return type(value) in (dict, list)


hits = [
    rec.get("call_id")
    for rec in conversation_history
    if rec.get("method_name")
    and any(isinstance(a, str) and parses_to_structure(a) for a in rec.get("args") or [])
]
f"{len(hits)} call(s) passed JSON-encoded strings instead of objects: {hits}" if hits else "no JSON-encoded string args"
