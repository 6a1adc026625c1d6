from collections import defaultdict

tools_for = defaultdict(dict)
for step in context["conversation_history"]:
    if step.get("goal") and step.get("method_name"):
        tools_for[step["goal"]][step["method_name"]] = None
result = {
    "goals": {goal: list(tools) for goal, tools in tools_for.items()},
    "goal_count": len(tools_for),
}
