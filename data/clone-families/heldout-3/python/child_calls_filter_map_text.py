my_id = context.get("call_id")
names = list(
    map(
        lambda r: r.get("method_name"),
        filter(lambda r: r.get("parent_call_id") == my_id, conversation_history or []),
    )
)
result = ("child calls: " + ", ".join(str(n) for n in names)) if names else "no child calls"
