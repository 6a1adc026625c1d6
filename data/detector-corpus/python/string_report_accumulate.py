hist = context["conversation_history"] or []
report = "Session report\n"
for i, rec in enumerate(hist[-10:], start=1):
    report += f"{i}. {rec['method_name']} ({rec['speaker']})\n"
result = report
