history = context.get("conversation_history") or []
a, b = kwargs.get("start_id"), kwargs.get("end_id")

start_at = next((i for i, r in enumerate(history) if r.get("call_id") == a), None)
end_at = next((i for i, r in enumerate(history) if r.get("call_id") == b), None)

steps = []
if start_at is not None and end_at is not None:
    steps = [r.get("method_name") for r in history[start_at + 1:end_at] if r.get("method_name")]
f"between {a} and {b}: " + (" -> ".join(steps) if steps else "no method calls")
