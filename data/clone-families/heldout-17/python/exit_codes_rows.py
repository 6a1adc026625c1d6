import re

history = context["conversation_history"]
code_re = re.compile(r"exit (?:code|status)\s*[:=]?\s*(-?\d+)", re.I)
failed = [h for h in history if (h.get("outcome_summary") or {}).get("ok") is False]
by_code = {}
for h in failed:
    text = h["outcome_summary"].get("error_message")
    if isinstance(text, str):
        for code in set(map(int, code_re.findall(text))):
            by_code.setdefault(code, []).append(h.get("call_id"))
result = [
    {"exit_code": code, "failures": len(ids), "call_ids": ids}
    for code, ids in sorted(by_code.items(), key=lambda kv: (-len(kv[1]), kv[0]))
]
