links = {}
for msg in context["conversation_history"]:
    body = msg.get("content")
    if not body:
        continue
    for word in body.split():
        if word.startswith(("http://", "https://")):
            links[word.strip(".,;!?)")] = True
result = {"urls": list(links), "count": len(links)}
