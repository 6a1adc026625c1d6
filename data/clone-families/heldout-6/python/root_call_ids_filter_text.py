is_root = lambda rec: rec.get("parent_call_id") is None or rec.get("parent_call_id") == ""
ids = [rec["call_id"] for rec in filter(is_root, conversation_history)]
result = "root calls: " + (" ".join(ids) if ids else "(none)")
