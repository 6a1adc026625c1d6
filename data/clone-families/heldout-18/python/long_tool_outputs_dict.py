history = context.get("conversation_history") or []
is_tool = lambda rec: rec.get("role") == "tool"
text_of = lambda rec: rec["content"] if isinstance(rec.get("content"), str) else ""

sizes = {}
for rec in filter(is_tool, history):
    n = len(text_of(rec))
    if n <= 1000:
        continue
    sizes[rec.get("call_id")] = n
result = {"count": len(sizes), "sizes": sizes}
