records = context.get("conversation_history") or []
structured = filter(
    lambda r: r.get("content") is not None and not isinstance(r.get("content"), str),
    records,
)
result = list(map(lambda r: r.get("call_id"), structured))
