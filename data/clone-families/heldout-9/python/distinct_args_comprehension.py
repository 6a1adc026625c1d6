records = context.get("conversation_history") or []
named = [r for r in records if r.get("method_name")]
method_names = sorted({r["method_name"] for r in named})
[
    (m, len({tuple(r["args"]) if r["args"] else () for r in named if r["method_name"] == m}))
    for m in method_names
]
