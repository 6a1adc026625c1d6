records = context["conversation_history"]
hit = next((r for r in reversed(records) if (r.get("goal") or "").strip()), None)
result = {"goal": hit["goal"] if hit else None, "set_by": hit["call_id"] if hit else None}
