import re

seen = {}
for step in conversation_history:
    out = step.get("outcome_summary")
    if not out or out.get("ok") is not False:
        continue
    err = out.get("error_message") or ""
    if not isinstance(err, str):
        continue
    codes = {int(m.group(1)) for m in re.finditer(r"exit (?:code|status)\s*[:=]?\s*(-?\d+)", err, flags=re.I)}
    for c in codes:
        seen[c] = seen.get(c, 0) + 1

"; ".join(f"exit {c}: {n} failure(s)" for c, n in sorted(seen.items())) or "No failure reported an exit code."
