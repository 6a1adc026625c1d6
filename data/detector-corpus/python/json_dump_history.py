import json

result = json.dumps(context["conversation_history"], default=str)
