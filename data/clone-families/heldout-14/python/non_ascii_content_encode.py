def needs_unicode(text):
    try:
        text.encode("ascii")
    except UnicodeEncodeError:
        return True
    return False


history = context["conversation_history"]
result = []
for idx, entry in enumerate(history):
    body = entry.get("content")
    if body and needs_unicode(str(body)):
        result.append(
            {
                "index": idx,
                "call_id": entry.get("call_id"),
                "speaker": entry.get("speaker"),
                "preview": str(body)[:40],
            }
        )
