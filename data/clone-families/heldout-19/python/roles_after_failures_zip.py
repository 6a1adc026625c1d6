from collections import Counter

msgs = context.get("conversation_history") or []
result = Counter(
    nxt["role"]
    for cur, nxt in zip(msgs, msgs[1:])
    if (cur.get("outcome_summary") or {}).get("ok") is False and isinstance(nxt.get("role"), str) and nxt["role"]
)
