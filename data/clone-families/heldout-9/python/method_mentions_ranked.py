log = context["conversation_history"]
texts = [e["content"] for e in log if isinstance(e.get("content"), str) and e["content"]]
names = {e["method_name"] for e in log if e.get("method_name")}
ranked = sorted(((n, sum(1 for t in texts if n in t)) for n in names), key=lambda p: (-p[1], p[0]))
result = {"mentions": ranked, "records_with_text": len(texts)}
