me = context["call_id"]
kids = [h for h in context["conversation_history"] if h.get("parent_call_id") == me]
result = {"delegated": [k["method_name"] for k in kids], "n": len(kids)}
