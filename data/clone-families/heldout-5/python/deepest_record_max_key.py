recs = context["conversation_history"]
top = max(recs, key=lambda r: r["depth"]) if recs else None
result = top["call_id"] if top else None
