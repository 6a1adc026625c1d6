keys = [(c["method_name"], repr(c.get("args"))) for c in conversation_history if c.get("method_name") is not None]
dupes = len(keys) - len(set(keys))
result = f"{dupes} repeated call(s) out of {len(keys)}"
