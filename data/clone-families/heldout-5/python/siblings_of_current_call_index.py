records = context["conversation_history"]
by_id = {r["call_id"]: r for r in records}
current_id = context.get("call_id")

if current_id in by_id:
    parent_id = by_id[current_id]["parent_call_id"]
    result = {
        "parent": parent_id,
        "siblings": [
            r["call_id"] for r in records
            if r["parent_call_id"] == parent_id and r["call_id"] != current_id
        ],
    }
else:
    result = {"parent": None, "siblings": []}
