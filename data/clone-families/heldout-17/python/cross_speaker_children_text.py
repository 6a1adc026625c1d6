records = context.get("conversation_history") or []
index = {}
for rec in records:
    if rec.get("call_id"):
        index[rec["call_id"]] = rec


def handoff(rec):
    parent = index.get(rec.get("parent_call_id")) if rec.get("parent_call_id") else None
    if not parent:
        return None
    a, b = parent.get("speaker"), rec.get("speaker")
    return (a, b) if a and b and a != b else None


lines = []
for rec in records:
    pair = handoff(rec)
    if pair:
        lines.append(f"{rec.get('parent_call_id')} ({pair[0]}) -> {rec.get('call_id')} ({pair[1]})")
result = "\n".join(lines) or "Every child call was made by the same speaker as its parent."
