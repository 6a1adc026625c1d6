def mentions(record, q):
    body = record.get("content")
    return bool(body) and q.lower() in str(body).lower()


q = args[0] if args else kwargs.get("query", "")
found = list(filter(lambda r: mentions(r, q), conversation_history))
if not found:
    result = f"No messages mention '{q}'."
else:
    result = [f"[{r.get('call_id')}] {str(r.get('content'))[:60]}" for r in found]
