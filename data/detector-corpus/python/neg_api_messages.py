response = context["api_response"]
messages = response.get("messages", [])
latest = sorted(messages, key=lambda m: m["ts"])[-3:]
result = [m["text"] for m in latest if "error" not in m["text"]]
