result = {
    rec["role"]: rec["content"]
    for rec in conversation_history
    if rec.get("role") and isinstance(rec.get("content"), str)
}
