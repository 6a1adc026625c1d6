from datetime import datetime

last_user = None
quick = 0
for message in conversation_history:
    stamp = message.get("timestamp")
    if not stamp:
        continue
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    role = message.get("role")
    if role == "assistant" and last_user is not None and 0 <= (when - last_user).total_seconds() <= 5:
        quick += 1
    elif role == "user":
        last_user = when
result = quick
