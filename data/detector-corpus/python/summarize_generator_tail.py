conv = context.get("conversation_history", [])
transcript = "\n".join(f"{m['speaker']}: {m['outcome_summary']}" for m in conv[-20:])
result = {"transcript": transcript}
