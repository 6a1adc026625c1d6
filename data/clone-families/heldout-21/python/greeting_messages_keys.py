import re

[
    {"id": record.get("call_id"), "text": record["content"]}
    for record in conversation_history
    if record.get("role") == "user"
    and isinstance(record.get("content"), str)
    and re.match(r"\s*(hi|hello|hey)\b", record["content"], re.I)
]
