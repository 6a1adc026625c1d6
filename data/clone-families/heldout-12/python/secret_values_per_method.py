SECRET_PREFIXES = ("sk-", "ghp_")
SECRET_KEY_WORDS = ("token", "secret", "password")

history = context.get("conversation_history", [])
leaky = {}
for record in history:
    options = record.get("kwargs") or {}
    values = list(record.get("args") or []) + list(options.values())
    hits = sum(1 for v in values if isinstance(v, str) and v.startswith(SECRET_PREFIXES))
    if hits:
        method = record.get("method_name") or record.get("role")
        leaky[method] = leaky.get(method, 0) + hits
result = leaky
