history = context["conversation_history"]
transcript = ""
for rec in history:
    if rec["speaker"] == "tool":
        continue
    transcript += f"{rec['speaker']}: {rec['outcome_summary']}\n"
result = transcript.strip()
