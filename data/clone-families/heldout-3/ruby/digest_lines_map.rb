history = context[:conversation_history] || []
lines = history.map do |rec|
  status = rec.dig(:outcome_summary, :status) || "-"
  "#{rec[:speaker]}: #{rec[:method_name]} -> #{status}"
end
result = lines.join("\n")
