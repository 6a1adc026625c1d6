replies = []
for rec in context["conversation_history"]:
    if rec.get("role") != "assistant":
        continue
    text = rec.get("content")
    replies.append({"call_id": rec["call_id"], "chars": len(text) if text else 0})
result = {"replies": replies, "longest": max((r["chars"] for r in replies), default=0)}
