from collections import Counter

words = kwargs.get("text", "").lower().split()
result = Counter(words).most_common(3)
