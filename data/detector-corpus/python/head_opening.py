h = context["conversation_history"]
opening = h[:2]
result = {"first_request": opening[0]["args"] if opening else None}
