CONFIRMATIONS = {"yes", "y", "yep", "yeah", "ok", "okay", "sure", "go ahead", "do it"}

history = context["conversation_history"]
confirmed = []
for record in history:
    if record.get("role") != "user":
        continue
    text = record.get("content")
    if not isinstance(text, str):
        continue
    if text.strip().lower().rstrip(".!") in CONFIRMATIONS:
        confirmed.append(record.get("call_id"))
result = confirmed
