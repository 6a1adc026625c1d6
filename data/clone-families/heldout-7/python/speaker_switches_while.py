log = context.get("conversation_history") or []
i = 1
flips = 0
while i < len(log):
    flips += log[i].get("speaker") != log[i - 1].get("speaker")
    i += 1

{
    "speaker_switches": flips,
    "switch_share_pct": round(100 * flips / (len(log) - 1), 1) if len(log) > 1 else 0.0,
}
