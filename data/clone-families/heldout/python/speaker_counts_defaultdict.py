from collections import defaultdict

turns_by_role = defaultdict(int)
for turn in context.get("conversation_history") or []:
    role = turn.get("speaker") or "unknown"
    turns_by_role[role] += 1
result = dict(turns_by_role)
