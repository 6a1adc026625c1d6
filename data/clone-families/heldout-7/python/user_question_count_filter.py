is_question = lambda e: (
    e.get("role") == "user"
    and isinstance(e.get("content"), str)
    and e["content"].strip()[-1:] == "?"
)
hits = list(filter(is_question, conversation_history))
result = f"{len(hits)} user questions" + (": " + ", ".join(h["call_id"] for h in hits) if hits else "")
