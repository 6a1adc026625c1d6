history = context["conversation_history"]
assistant_texts = filter(
    lambda r: r.get("role") == "assistant" and isinstance(r.get("content"), str), history
)
pairs = list(map(lambda r: (r.get("call_id"), r["content"]), assistant_texts))
result = pairs[-3:]
