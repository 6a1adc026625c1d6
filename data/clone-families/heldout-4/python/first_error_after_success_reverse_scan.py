log = context["conversation_history"]
# Walk backwards: the last failure seen before reaching a success is the first one after it.
candidate = None
for entry in reversed(log):
    if entry["outcome_summary"]["ok"]:
        break
    candidate = entry

result = (
    f"First error since last success: {candidate['call_id']} ({candidate['outcome_summary']['error_type']})"
    if candidate
    else "No error since the last success"
)
