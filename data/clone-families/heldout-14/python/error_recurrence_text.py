from datetime import datetime


def seconds(ts):
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


last_seen, gaps = {}, {}
for msg in conversation_history:
    summary = msg.get("outcome_summary")
    if not summary or summary.get("ok") is not False:
        continue
    etype = summary.get("error_type") or ""
    if not etype:
        continue
    now = seconds(msg["timestamp"])
    if etype in last_seen:
        gaps.setdefault(etype, []).append(now - last_seen[etype])
    last_seen[etype] = now

rows = sorted(((sum(g) / len(g), t, len(g) + 1) for t, g in gaps.items()), reverse=True)
"\n".join(f"{t}: recurs every {avg:.0f}s on average ({n} failures)" for avg, t, n in rows) or "No error type recurred."
