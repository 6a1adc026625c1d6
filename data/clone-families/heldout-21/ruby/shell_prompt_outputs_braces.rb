log = context[:conversation_history] || []
shells = log.each_with_object({}) { |item, acc|
  text = item[:content]
  next unless item[:role] == "tool" && text.is_a?(String)

  lines = text.lines.map(&:chomp).select do |line| line.start_with?("$ ") end
  acc[item[:call_id]] = lines unless lines.empty?
}
Agent::Outcome.ok(shells)
