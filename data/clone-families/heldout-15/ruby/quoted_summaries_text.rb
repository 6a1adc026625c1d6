history = context[:conversation_history] || []
results = []
lines = []
history.each_with_index do |step, i|
  if step[:role] == "assistant" && step[:content].is_a?(String)
    used = results.select { |s| step[:content].include?(s) }
    lines << "##{i} #{step[:call_id]} repeats #{used.size} tool result(s): #{used.first}" unless used.empty?
  end
  summary = step.dig(:outcome_summary, :summary)
  if step.dig(:outcome_summary, :ok) == true && summary.is_a?(String) && summary.strip != ""
    results << summary.strip
  end
end
lines.empty? ? "No reply quoted an earlier result." : lines.join("\n")
