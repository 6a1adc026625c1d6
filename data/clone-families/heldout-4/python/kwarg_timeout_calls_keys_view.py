calls = context["conversation_history"]
ids = [c["call_id"] for c in calls if any(k == "timeout" for k in c["kwargs"].keys())]
result = {"count": len(ids), "call_ids": ids}
