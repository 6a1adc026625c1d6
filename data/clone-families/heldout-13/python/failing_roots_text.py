lookup = {}
for step in conversation_history:
    if step.get("call_id"):
        lookup[step["call_id"]] = step


def top_of(step, depth=0):
    parent_id = step.get("parent_call_id")
    if not parent_id or parent_id not in lookup or depth > len(lookup):
        return step.get("call_id")
    return top_of(lookup[parent_id], depth + 1)


tops = []
for step in conversation_history:
    outcome = step.get("outcome_summary")
    if not outcome or outcome.get("ok") is not False:
        continue
    if step.get("parent_call_id") not in lookup:
        continue
    top = top_of(step)
    if top not in tops:
        tops.append(top)

"Call trees with a failure somewhere below the root: " + ", ".join(tops) if tops else "No failures inside any call tree."
