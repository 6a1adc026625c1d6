question = str(context.get("input", "")).strip()
word_count = len(question.split())

tally = {}
history = context["conversation_history"]
for rec in history:
    tally.setdefault(rec["speaker"], 0)
    tally[rec["speaker"]] += 1

lines = [f"{name}: {n} turns" for name, n in sorted(tally.items())]
result = f"Input has {word_count} words.\n" + ("\n".join(lines) if lines else "no turns yet")
