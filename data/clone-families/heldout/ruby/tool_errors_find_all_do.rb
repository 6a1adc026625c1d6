records = context[:conversation_history] || []
failed = records.find_all do |rec|
  rec[:speaker] == "tool" && !rec.dig(:outcome_summary, :ok)
end
ids = failed.collect do |rec|
  rec[:call_id]
end
result = ids
