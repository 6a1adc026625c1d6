import re

term = args[0] if args else ""
pattern = re.compile(re.escape(term), re.IGNORECASE)
hits = [r for r in conversation_history if isinstance(r.get("content"), str) and pattern.search(r["content"])]
result = {"query": term, "call_ids": [r.get("call_id") for r in hits], "count": len(hits)}
