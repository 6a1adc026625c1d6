history = context[:conversation_history] || []
failed = history.reject { |rec| rec.dig(:outcome_summary, :ok) }
lines = failed.map do |rec|
  status = rec.dig(:outcome_summary, :status) || "-"
  "#{rec[:speaker]}: #{rec[:method_name]} -> #{status}"
end
result = lines.join("\n")
