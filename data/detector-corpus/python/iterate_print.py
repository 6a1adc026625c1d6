for record in context["conversation_history"]:
    print(record["call_id"], record["speaker"])
result = None
