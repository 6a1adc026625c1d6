import re

import_re = re.compile(r"^[ \t]*(?:from|import)[ \t]+([A-Za-z_][\w.]*)", re.M)
history = context["conversation_history"]
if not history:
    modules = []
else:
    names = [name for record in history if isinstance(record.get("content"), str) for name in import_re.findall(record["content"])]
    modules = [name for index, name in enumerate(names) if name not in names[:index]]
modules
