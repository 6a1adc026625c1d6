import calendar, time

def secs(stamp):
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))

users = [m for m in conversation_history if (m.get("role") or "") == "user"]
rows = []
for k in range(1, len(users)):
    wait = secs(users[k]["timestamp"]) - secs(users[k - 1]["timestamp"])
    rows.append(f"{users[k - 1]['call_id']} -> {users[k]['call_id']}: {wait}s")
result = "\n".join(rows) if rows else "fewer than two user messages"
