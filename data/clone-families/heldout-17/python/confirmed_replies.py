CONFIRMATIONS = {"yes", "y", "yep", "yeah", "ok", "okay", "sure", "go ahead", "do it"}

history = context["conversation_history"]
confirmed = []
last_reply = None
for record in history:
    if record.get("role") == "assistant":
        last_reply = record.get("call_id")
        continue
    if record.get("role") != "user":
        continue
    text = record.get("content")
    if not isinstance(text, str):
        continue
    if text.strip().lower().rstrip(".!") in CONFIRMATIONS and last_reply is not None:
        confirmed.append(last_reply)
result = confirmed
