msgs = context["conversation_history"]
users = [m for m in msgs if m.get("role") == "user"]
asked = sum(1 for m in users if str(m.get("content") or "").rstrip().endswith("?"))
result = {
    "questions": asked,
    "user_messages": len(users),
    "question_pct": round(100.0 * asked / len(users), 1) if users else 0.0,
}
