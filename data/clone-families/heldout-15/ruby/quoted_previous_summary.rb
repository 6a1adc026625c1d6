history = context[:conversation_history] || []
previous = nil
quoting = []
history.each do |rec|
  text = rec[:content]
  if rec[:role] == "assistant" && text.is_a?(String) && previous && text.include?(previous)
    quoting << rec[:call_id]
  end
  outcome = rec[:outcome_summary] || {}
  summary = outcome[:summary]
  previous = (summary.strip if outcome[:ok] == true && summary.is_a?(String) && !summary.strip.empty?)
end
quoting
