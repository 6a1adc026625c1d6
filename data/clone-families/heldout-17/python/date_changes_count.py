history = context["conversation_history"]
days = [(h.get("call_id"), h["timestamp"].split("T")[0]) for h in history if h.get("timestamp")]
crossings = []
for i in range(1, len(days)):
    if days[i][1] != days[i - 1][1]:
        crossings.append(days[i][0])
result = {"date_changes": len(crossings), "call_ids": crossings}
