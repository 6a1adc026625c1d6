import re

text = kwargs.get("text", "")
emails = re.findall(r"[\w.]+@[\w.]+", text)
result = {"emails": emails, "count": len(emails)}
