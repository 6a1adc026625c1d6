import itertools
import logging

logger = logging.getLogger(__name__)
history = context.get("conversation_history") or []
names = sorted(h["method_name"] for h in history if h.get("method_name"))

one_shot = []
for name, group in itertools.groupby(names):
    if len(list(group)) == 1:
        one_shot.append(name)

logger.info("found %d single-use methods", len(one_shot))
result = {"methods": one_shot, "total_calls": len(names)}
