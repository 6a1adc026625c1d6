page_size = int(kwargs.get("page_size", 20))
names = [h["method_name"] for h in conversation_history if h.get("method_name")]
usage = {n: names.count(n) for n in set(names)}
result = {"counts": usage, "page_size": page_size}
