summary = context[:conversation_summary] || ""
words = summary.split.group_by(&:downcase)
result = words.keys.take(5)
