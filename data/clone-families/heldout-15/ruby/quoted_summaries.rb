history = context[:conversation_history] || []
summaries = []
quoting = []
history.each do |rec|
  text = rec[:content]
  if rec[:role] == "assistant" && text.is_a?(String) && summaries.any? { |s| text.include?(s) }
    quoting << rec[:call_id]
  end
  outcome = rec[:outcome_summary] || {}
  summary = outcome[:summary]
  summaries << summary.strip if outcome[:ok] == true && summary.is_a?(String) && !summary.strip.empty?
end
quoting
