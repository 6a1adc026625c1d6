# Step 1: Decompose
# - Capability: render the session so far as plain text, one line per call
# Step 3: Select Stance
# - Do: inline formatting

PRECISION = 2
context["memory"] = round(float(context.get("memory") or 0), PRECISION)


def render(record):
    summary = record.get("outcome_summary", {})
    return f"{record['timestamp']} {record['speaker']}.{record['method_name']} -> {summary.get('status')}"


calls = context["conversation_history"]
result = "\n".join(render(c) for c in calls)
