history = context["conversation_history"]
target_tool = kwargs.get("tool", "web_search")
ok_runs = [r for r in history if r["method_name"] == target_tool and r["outcome_summary"]["ok"]]
recent = ok_runs[-3:]
result = {
    "tool": target_tool,
    "results": [r["outcome_summary"]["summary"] for r in recent],
    "count": len(recent),
}
