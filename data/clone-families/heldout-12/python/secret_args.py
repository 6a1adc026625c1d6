SECRET_PREFIXES = ("sk-", "ghp_")
SECRET_KEY_WORDS = ("token", "secret", "password")

history = context.get("conversation_history", [])
leaky = []
for record in history:
    options = record.get("kwargs") or {}
    values = list(record.get("args") or []) + list(options.values())
    by_value = any(isinstance(v, str) and v.startswith(SECRET_PREFIXES) for v in values)
    by_key = any(word in str(key).lower() for key in options for word in SECRET_KEY_WORDS)
    if by_value or by_key:
        leaky.append(record.get("call_id"))
result = leaky
