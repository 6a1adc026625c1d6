import re

MULT = {"B": 1, "KB": 1024, "MB": 1048576, "GB": 1073741824}
lines = []
for r in conversation_history:
    o = r.get("outcome_summary") or {}
    s = o.get("summary")
    if o.get("ok") is not True or not isinstance(s, str):
        continue
    found = re.findall(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB|B)\b", s, flags=re.IGNORECASE)
    if found:
        parts = [f"{n} {u} = {int(float(n) * MULT[u.upper()])} bytes" for n, u in found]
        lines.append(f"{r.get('call_id')}: " + "; ".join(parts))
"\n".join(lines) if lines else "No sizes reported by successful calls."
