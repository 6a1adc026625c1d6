found = {}
entries = context[:conversation_history] || []
entries.each do |entry|
  output = entry[:content]
  next unless entry[:role] == "tool" && output.is_a?(String)

  commands = []
  output.lines.each { |row| commands << row.chomp if row.chomp.start_with?("$ ") }
  found[entry[:call_id]] = commands unless commands.empty?
end
Agent::Outcome.ok(found)
