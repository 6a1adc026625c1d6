history = context[:conversation_history] || []
prompts = history.each_with_object({}) do |record, found|
  text = record[:content]
  next unless record[:role] == "tool" && text.is_a?(String)

  lines = text.lines.map(&:chomp).select { |line| line.start_with?("$ ") }
  found[record[:call_id]] = lines unless lines.empty?
end
Agent::Outcome.ok(prompts)
