class HistoryQuery:
    def __init__(self, records):
        self.records = records

    def by_method(self, name):
        return [r for r in self.records if r["method_name"] == name]


q = HistoryQuery(context["conversation_history"])
result = len(q.by_method("add"))
