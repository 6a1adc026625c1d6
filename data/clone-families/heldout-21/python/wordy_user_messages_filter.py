entries = context["conversation_history"]
list(
    map(
        lambda e: {"call_id": e.get("call_id"), "words": len(e["content"].split())},
        filter(
            lambda e: e.get("role") == "user" and isinstance(e.get("content"), str) and len(e["content"].split()) > 20,
            entries,
        ),
    )
)
