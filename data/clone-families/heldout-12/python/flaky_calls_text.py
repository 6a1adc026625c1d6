import json
from collections import defaultdict

statuses = defaultdict(lambda: {"ok": 0, "failed": 0})
for entry in conversation_history:
    if not entry.get("method_name"):
        continue
    summary = entry.get("outcome_summary") or {}
    if not summary:
        continue
    sig = entry["method_name"] + " args=" + json.dumps(entry.get("args") or [])
    statuses[sig]["ok" if summary.get("ok") else "failed"] += 1

lines = [f"{sig} ({c['ok']} ok / {c['failed']} failed)" for sig, c in statuses.items() if c["ok"] and c["failed"]]
"\n".join(lines) or "no call both passed and failed with the same arguments"
