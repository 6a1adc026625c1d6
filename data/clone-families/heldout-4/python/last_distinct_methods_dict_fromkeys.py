N = 3
methods = [c["method"] for c in conversation_history]
ordered = list(dict.fromkeys(reversed(methods)))
result = {"last_distinct_methods": ordered[:N], "total_calls": len(methods)}
