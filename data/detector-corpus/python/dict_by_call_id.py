history = context["conversation_history"]
by_id = {r["call_id"]: r for r in history}
parent = by_id.get(context.get("parent_call_id"))
result = parent["method_name"] if parent else None
