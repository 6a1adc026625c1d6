history = context[:conversation_history] || []
lines = history.last(5).map do |r|
  if r[:method_name]
    "#{r[:speaker]}: #{r[:method_name]} -> #{r.dig(:outcome_summary, :status)}"
  else
    "#{r[:speaker]}: #{r[:content]}"
  end
end
result = lines.join("\n")
