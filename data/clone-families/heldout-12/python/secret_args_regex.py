import re

looks_secret = re.compile(r"^(?:sk-|ghp_)")
sensitive_name = re.compile(r"token|secret|password", re.IGNORECASE)


def flagged(rec):
    kw = rec.get("kwargs") or {}
    for value in (rec.get("args") or []):
        if isinstance(value, str) and looks_secret.match(value):
            return "value"
    for name, value in kw.items():
        if sensitive_name.search(str(name)):
            return "key"
        if isinstance(value, str) and looks_secret.match(value):
            return "value"
    return None


result = [
    {"call_id": rec.get("call_id"), "method": rec.get("method_name"), "reason": flagged(rec)}
    for rec in context["conversation_history"]
    if flagged(rec)
]
