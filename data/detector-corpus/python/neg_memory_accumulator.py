# Step 4: Implement
# The accumulator lives in context["memory"]; the history is not needed here.
current = context.get("memory", 0)
amount = float(args[0]) if args else 0.0
context["memory"] = current * amount
result = context["memory"]
