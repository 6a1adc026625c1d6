import re


def to_snake(key):
    return re.sub(r"(?<=[a-z])([A-Z])", r"_\1", key).lower()


suggestions = {}
for msg in context["conversation_history"]:
    kw = msg.get("kwargs") or {}
    if not isinstance(kw, dict):
        continue
    fixes = {k: to_snake(k) for k in kw if isinstance(k, str) and to_snake(k) != k.lower()}
    if fixes:
        suggestions[msg.get("call_id")] = fixes

result = suggestions
