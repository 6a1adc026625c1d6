from datetime import datetime

history = context.get("conversation_history") or []


def when(entry):
    ts = entry.get("timestamp")
    return datetime.fromisoformat(ts.replace("Z", "+00:00")) if ts else None


def first_reply_after(index):
    for entry in history[index + 1:]:
        if entry.get("role") == "assistant" and when(entry):
            return entry
    return None


lines = []
for idx, entry in enumerate(history):
    if entry.get("role") == "tool" and when(entry):
        reply = first_reply_after(idx)
        if reply:
            gap = (when(reply) - when(entry)).total_seconds()
            lines.append(f"tool {entry.get('call_id')} -> reply {reply.get('call_id')} after {gap:.0f}s")
"\n".join(lines) if lines else "no tool result was followed by a reply"
