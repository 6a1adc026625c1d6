history = context["conversation_history"]
tokens = sum(r.get("token_count", 0) for r in history[-10:])
models = {r.get("model") for r in history[-10:]}
result = {"tokens": tokens, "models": sorted(m for m in models if m)}
