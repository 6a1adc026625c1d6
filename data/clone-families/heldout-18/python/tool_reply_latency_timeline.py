from datetime import datetime

history = context.get("conversation_history", [])
timeline = [
    (rec.get("role"), rec.get("call_id"), datetime.fromisoformat(rec["timestamp"].replace("Z", "+00:00")))
    for rec in history
    if rec.get("timestamp")
]
seconds = []
for pos, (role, call_id, at) in enumerate(timeline):
    if role != "tool":
        continue
    reply_at = next((t for r, _, t in timeline[pos + 1:] if r == "assistant"), None)
    if reply_at is not None:
        seconds.append(int((reply_at - at).total_seconds()))
result = {"tool_results_answered": len(seconds), "seconds_to_reply": seconds}
