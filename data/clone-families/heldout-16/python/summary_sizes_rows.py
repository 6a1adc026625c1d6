import re

size_re = re.compile(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB|B)\b", re.I)
factor = {"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30}

rows = []
for rec in context.get("conversation_history", []):
    out = rec.get("outcome_summary")
    if not out or not out.get("ok"):
        continue
    text = out.get("summary")
    if not isinstance(text, str) or not text:
        continue
    for m in size_re.finditer(text):
        rows.append({
            "call_id": rec.get("call_id"),
            "method": rec.get("method_name"),
            "text": m.group(0),
            "bytes": float(m.group(1)) * factor[m.group(2).lower()],
        })
result = rows
