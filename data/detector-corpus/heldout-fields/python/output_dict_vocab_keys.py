history = context["conversation_history"]
result = {
    "speaker": "agent",
    "method_name": "summarize_history",
    "args": [],
    "kwargs": {"count": len(history)},
    "outcome_summary": {"ok": True, "status": "done"},
}
