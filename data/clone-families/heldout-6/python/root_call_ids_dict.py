entries = context["conversation_history"]
top_level = [e.get("call_id") for e in entries if e.get("parent_call_id") in (None, "")]
result = {"root_calls": top_level, "count": len(top_level), "total": len(entries)}
