records = context[:conversation_history] || []
failures = records.select do |rec|
  rec.dig(:outcome_summary, :status) == "error"
end
result = failures.size
