entries = context[:conversation_history] || []
commands = entries.each_with_object({}) do |entry, acc|
  next unless entry.is_a?(Hash)

  output = entry[:content]
  next unless entry[:role] == "tool" && output.is_a?(String)
  next unless output.include?("$ ")

  lines = output.lines.map(&:chomp).select { |line| line.start_with?("$ ") }
  acc[entry[:call_id]] = lines unless lines.empty?
end
Agent::Outcome.ok(commands)
