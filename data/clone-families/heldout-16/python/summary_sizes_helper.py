import re

SIZE_RE = re.compile(r"(\d+(?:\.\d+)?)\s*(KB|MB|GB|B)\b", re.IGNORECASE)


def to_bytes(match):
    number, unit = match.groups()
    scale = {"B": 1, "KB": 1024, "MB": 1024 * 1024, "GB": 1024 * 1024 * 1024}[unit.upper()]
    return int(round(float(number) * scale))


def succeeded(rec):
    return (rec.get("outcome_summary") or {}).get("ok") is True


result = []
for rec in context.get("conversation_history", []):
    if not succeeded(rec):
        continue
    text = rec["outcome_summary"].get("summary")
    if isinstance(text, str):
        sizes = [to_bytes(m) for m in SIZE_RE.finditer(text)]
        if sizes:
            result.append((rec.get("call_id"), sizes))
