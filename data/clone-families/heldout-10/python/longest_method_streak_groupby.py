from itertools import groupby

names = [r["method_name"] for r in context["conversation_history"] if r.get("method_name")]
streaks = [(name, len(list(group))) for name, group in groupby(names)]
if streaks:
    top_name, top_len = max(streaks, key=lambda s: s[1])
    result = f"{top_name} was called {top_len} times in a row"
else:
    result = "no tool calls"
