numeric = {}
for msg in conversation_history:
    kw = msg.get("kwargs")
    if isinstance(kw, dict):
        for key, val in kw.items():
            if isinstance(val, (int, float)) and not isinstance(val, bool):
                numeric.setdefault(key, []).append(val)
if numeric:
    text = "\n".join(f"{key}: max {max(vals)} over {len(vals)} numeric values" for key, vals in sorted(numeric.items()))
else:
    text = "No numeric keyword arguments were passed."
text
