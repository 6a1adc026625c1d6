history = context.get("conversation_history", [])
last = history[-1]
kw = last.get("kwargs") or {}
result = {"n_args": len(last.get("args", [])), "kw_keys": sorted(kw)}
