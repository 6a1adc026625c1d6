import re

by_speaker = {}
for r in conversation_history:
    if not r.get("speaker") or not isinstance(r.get("content"), str):
        continue
    for h in re.findall(r"(?<!\w)@(\w+)", r["content"]):
        by_speaker.setdefault(r["speaker"], {})[h] = True
"; ".join(f"{s} mentions " + ", ".join("@" + h for h in hs) for s, hs in by_speaker.items()) or "Nobody mentions anyone."
