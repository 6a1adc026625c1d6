records = context[:conversation_history] || []

errors = records.reject do |rec|
  rec.dig(:outcome_summary, :ok)
end

lines = errors.collect do |rec|
  "#{rec[:timestamp]} #{rec[:method_name]}: #{rec.dig(:outcome_summary, :error_type)}"
end

result = lines.join("\n")
