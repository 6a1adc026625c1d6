hist = context.conversation_history
result = {
    "turns": len(hist),
    "last": hist[-1].outcome_summary if hist else None,
}
