def has_secret(entry):
    strings = [a for a in entry.get("args") or [] if isinstance(a, str)]
    options = entry.get("kwargs") or {}
    strings += [v for v in options.values() if isinstance(v, str)]
    if any(s[:3] == "sk-" or s[:4] == "ghp_" for s in strings):
        return True
    lowered = " ".join(str(k).lower() for k in options)
    return "token" in lowered or "secret" in lowered or "password" in lowered


exposed = [entry.get("call_id") for entry in conversation_history if has_secret(entry)]
"possible credential exposure in calls: " + ", ".join(exposed) if exposed else "no credential-like values passed to tools"
