from datetime import datetime

records = context["conversation_history"]
next_reply_at = None
pairs = []
for rec in reversed(records):
    stamp = rec.get("timestamp")
    if not stamp:
        continue
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if rec.get("role") == "assistant":
        next_reply_at = moment
    elif rec.get("role") == "tool" and next_reply_at is not None:
        pairs.append((rec.get("call_id"), round((next_reply_at - moment).total_seconds(), 1)))
pairs.reverse()
result = pairs
