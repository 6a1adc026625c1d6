from collections import Counter
from itertools import chain

rows = context["conversation_history"]
counter = Counter(chain.from_iterable((r.get("kwargs") or {}).keys() for r in rows))
result = counter.most_common()
