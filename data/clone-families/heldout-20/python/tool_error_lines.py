import re

history = context.get("conversation_history") or []
outputs = [r for r in history if r.get("role") == "tool" and isinstance(r.get("content"), str)]
hits = []
for rec in outputs:
    for line in rec["content"].splitlines():
        if re.match(r"(ERROR|FATAL)\b", line):
            hits.append((rec.get("call_id"), line))
result = hits
