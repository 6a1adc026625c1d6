from itertools import takewhile

history = context.get("conversation_history") or []
result = [
    {
        "user_call_id": record.get("call_id"),
        "tool_output": next(
            (later.get("content") for later in takewhile(lambda r: r.get("role") != "user", history[index + 1:]) if later.get("role") == "tool"),
            None,
        ),
    }
    for index, record in enumerate(history)
    if record.get("role") == "user"
]
