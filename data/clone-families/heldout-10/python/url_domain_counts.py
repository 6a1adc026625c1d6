import re
from collections import Counter
from urllib.parse import urlparse

history = context.get("conversation_history", [])
URL = re.compile(r"https?://\S+")
hosts = Counter()
for item in history:
    text = item.get("content") or ""
    for match in URL.findall(text):
        url = match.rstrip(".,;:!?)\"'")
        hosts[urlparse(url).netloc] += 1
result = dict(hosts)
