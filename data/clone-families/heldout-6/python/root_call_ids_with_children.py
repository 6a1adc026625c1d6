import logging
from collections import defaultdict

logger = logging.getLogger("agent.tree")
history = context.get("conversation_history") or []
memory = context.get("memory") or {}

children = defaultdict(int)
for item in history:
    parent = item.get("parent_call_id")
    if parent:
        children[parent] += 1

tree = []
for item in history:
    if item.get("parent_call_id"):
        continue
    cid = item.get("call_id")
    tree.append({"call_id": cid, "children": children.get(cid, 0), "method": item.get("method_name")})

logger.debug("memory keys: %s", sorted(memory)[:5] if isinstance(memory, dict) else [])
result = tree
