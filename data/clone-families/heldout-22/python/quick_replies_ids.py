from datetime import datetime

quick = []
last_user = None
for message in conversation_history:
    role = message.get("role")
    stamp = message.get("timestamp")
    if not stamp:
        continue
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    if role == "assistant" and last_user is not None and 0 <= (when - last_user).total_seconds() <= 5:
        quick.append(message.get("call_id"))
    elif role == "user":
        last_user = when
result = quick
