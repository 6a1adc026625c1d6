from collections import Counter

conversation_history = context.get("conversation_history", [])
tally = Counter(map(lambda rec: rec["speaker"], conversation_history))
result = {"user": tally["user"], "agent": tally["agent"], "tool": tally["tool"]}
