import re

records = context.get("conversation_history") or []
counts = {}
for rec in records:
    summary = rec.get("outcome_summary") or {}
    if summary.get("ok") is False and isinstance(summary.get("error_message"), str):
        addresses = {
            ".".join(octets)
            for octets in re.findall(r"\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b", summary["error_message"])
            if max(int(o) for o in octets) <= 255
        }
        for address in addresses:
            counts[address] = counts.get(address, 0) + 1
result = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
