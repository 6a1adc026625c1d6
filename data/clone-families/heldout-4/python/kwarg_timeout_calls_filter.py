KEY = "timeout"
hits = list(filter(lambda c: KEY in (c.get("kwargs") or {}), conversation_history))
result = [{"call_id": h["call_id"], "method": h["method"], KEY: h["kwargs"][KEY]} for h in hits]
