prefs = context.get("user_preferences", {})
history = context["other_key"] if "other_key" in context else []
result = [h for h in history if h.get("pinned") and prefs.get("show_pinned", True)]
