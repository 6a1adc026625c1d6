from datetime import datetime, timezone

log = context.get("conversation_history") or []
parse = lambda s: datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
times = {e["call_id"]: parse(e["timestamp"]) for e in log}
lines = [
    f"{e['call_id']} started {int((times[e['call_id']] - times[e['parent_call_id']]).total_seconds())}s after {e['parent_call_id']}"
    for e in log
    if e.get("parent_call_id") in times
]
"\n".join(lines) if lines else "no child calls"
