needle = (args[0] if args else "").casefold()
hist = context["conversation_history"]
result = [h["call_id"] for h in hist if needle in (h.get("content") or "").casefold()]
