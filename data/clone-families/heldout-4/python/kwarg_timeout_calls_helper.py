import json


def has_kwarg(entry, name):
    kw = entry.get("kwargs")
    return isinstance(kw, dict) and name in kw


log = context.get("conversation_history") or []
lines = []
for e in log:
    if not has_kwarg(e, "timeout"):
        continue
    lines.append(f"{e['call_id']} {e['method']}({json.dumps(e['kwargs'], sort_keys=True)})")

result = "\n".join(lines) if lines else "no call passed timeout"
