user_turns = [t for t in conversation_history if t.get("speaker") == "user" and t.get("goal")]
if not user_turns:
    result = "No goal stated yet."
else:
    last_turn = user_turns[-1]
    result = "Goal: %s (need: %s)" % (last_turn["goal"], last_turn.get("need") or "-")
