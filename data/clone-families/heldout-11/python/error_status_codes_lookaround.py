import re

history = context.get("conversation_history") or []
pattern = re.compile(r"(?<![0-9A-Za-z_])([45]\d\d)(?![0-9A-Za-z_])")
per_code = {}
for item in history:
    info = item.get("outcome_summary")
    if not isinstance(info, dict) or info.get("ok") in (True, None):
        continue
    for code in pattern.findall(info.get("error_message") or ""):
        per_code.setdefault(code, []).append(item["call_id"])

lines = [f"HTTP {code}: {len(ids)}x ({', '.join(ids)})" for code, ids in sorted(per_code.items())]
"\n".join(lines) if lines else "no status codes in error messages"
