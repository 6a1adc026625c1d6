def size_of(entry):
    body = entry.get("content")
    return len(body) if isinstance(body, str) else 0


oversized = [e for e in conversation_history if e.get("role") == "tool" and size_of(e) > 1000]
lines = [
    f"- {e.get('call_id')} ({e.get('method_name') or '?'}): {size_of(e) / 1000:.1f}k chars"
    for e in oversized
]
"\n".join(["Tool outputs over 1000 characters:"] + lines) if lines else "No tool output exceeds 1000 characters."
