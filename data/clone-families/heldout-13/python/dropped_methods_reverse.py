records = context.get("conversation_history") or []

current_turn = set()
earlier = set()
reached_user = False
for rec in reversed(records):
    if not reached_user and rec.get("role") == "user":
        reached_user = True
        continue
    name = rec.get("method_name")
    if not name:
        continue
    (earlier if reached_user else current_turn).add(name)

if not reached_user:
    earlier = set()
result = {
    "no_longer_used": sorted(earlier - current_turn),
    "still_used": sorted(earlier & current_turn),
}
