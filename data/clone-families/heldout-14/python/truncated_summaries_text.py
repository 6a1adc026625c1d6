hits = []
for i, step in enumerate(conversation_history, 1):
    summary_block = step.get("outcome_summary") or {}
    if summary_block.get("ok") is True:
        s = summary_block.get("summary")
        if isinstance(s, str) and s.rstrip().endswith(("...", "…")):
            hits.append(f"#{i} {step.get('call_id')} ({step.get('method_name')}): {s.strip()}")

"Truncated results:\n" + "\n".join(hits) if hits else "No truncated results."
