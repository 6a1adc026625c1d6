from datetime import datetime

IDLE_LIMIT = 600

out = []
start = last = None
count = 0
first_id = None


def flush():
    if start is not None:
        secs = int((last - start).total_seconds())
        out.append(f"Session {len(out) + 1}: {count} records over {secs // 60}m {secs % 60}s (from {first_id})")


for step in conversation_history:
    now = datetime.fromisoformat(step["timestamp"].replace("Z", "+00:00"))
    if last is None or (now - last).total_seconds() > IDLE_LIMIT:
        flush()
        start, count, first_id = now, 0, step.get("call_id")
    count += 1
    last = now
flush()
"\n".join(out) if out else "No activity recorded."
