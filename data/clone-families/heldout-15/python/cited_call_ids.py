import re

CALL_ID = re.compile(r"call_[0-9a-f]{6}")

history = context.get("conversation_history", [])
known = {record.get("call_id") for record in history}
citations = {}
for record in history:
    content = record.get("content")
    if not isinstance(content, str):
        continue
    cited = sorted({c for c in CALL_ID.findall(content) if c in known and c != record.get("call_id")})
    if cited:
        citations[record.get("call_id")] = cited
result = citations
