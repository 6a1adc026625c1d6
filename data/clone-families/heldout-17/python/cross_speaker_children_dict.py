history = context["conversation_history"]
speaker_of = {h["call_id"]: h.get("speaker") for h in history if h.get("call_id")}
result = {}
for h in history:
    pid = h.get("parent_call_id")
    if not pid or pid not in speaker_of:
        continue
    mine, theirs = h.get("speaker"), speaker_of[pid]
    if mine and theirs and mine != theirs:
        result[h.get("call_id")] = {"parent": pid, "parent_speaker": theirs, "speaker": mine}
