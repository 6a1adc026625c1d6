log = context[:conversation_history] || []
starts = log.each_index.select { |i| log[i][:role] == "user" }
lines = starts.each_with_index.map do |start, n|
  stop = starts[n + 1] || log.size
  tools = (start + 1...stop).count { |j| log[j][:role] == "tool" }
  "turn #{n + 1} (#{log[start][:call_id]}): #{tools} tool call#{tools == 1 ? '' : 's'}"
end
Agent::Outcome.ok(lines.join("\n"))
