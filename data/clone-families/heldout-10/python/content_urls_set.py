import re

seen = set()
ordered = []
for rec in conversation_history:
    content = rec.get("content")
    if content is None:
        continue
    for raw in re.findall(r"(https?://[^\s]+)", content):
        link = re.sub(r"[.,;:!?)]+$", "", raw)
        if link in seen:
            continue
        seen.add(link)
        ordered.append(link)
result = "\n".join("- " + link for link in ordered) if ordered else "no links mentioned"
