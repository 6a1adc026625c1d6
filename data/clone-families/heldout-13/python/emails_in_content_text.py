import re

email_re = re.compile(r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}", re.IGNORECASE)
ordered = []
for msg in conversation_history:
    body = msg.get("content")
    if body:
        ordered.extend(e for e in email_re.findall(body) if e not in ordered)

"Email addresses mentioned: " + ", ".join(ordered) if ordered else "No email addresses found."
