from collections import defaultdict

# Step 1: Decompose
# - Capability: summarize failed calls by their error type
# - Keep the shared accumulator slot untouched

context["memory"] = context.get("memory") or 0.0

# Step 4: Implement
by_kind = defaultdict(int)
for entry in context["conversation_history"]:
    outcome = entry["outcome_summary"]
    if not outcome["ok"]:
        by_kind[outcome["error_type"]] += 1

result = dict(by_kind)
