wanted = args[0] if args else "search_web"
hit = next(
    (
        h
        for h in reversed(conversation_history)
        if h.get("method_name") == wanted and h.get("outcome_summary", {}).get("ok")
    ),
    None,
)
result = hit["outcome_summary"]["summary"] if hit else None
