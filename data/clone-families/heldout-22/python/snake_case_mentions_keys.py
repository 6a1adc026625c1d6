import re

IDENT = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
messages = context.get("conversation_history") or []
result = []
for message in messages:
    body = message.get("content")
    if message.get("role") != "user" or not isinstance(body, str):
        continue
    idents = IDENT.findall(body)
    if idents:
        result.append({"message": message.get("call_id"), "snake_case_names": idents})
