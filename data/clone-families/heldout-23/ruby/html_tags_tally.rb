history = Array(context[:conversation_history])
outputs = history.select { |record| record[:role] == "tool" && record[:content].is_a?(String) }
names = outputs.flat_map do |record|
  record[:content].scan(/<([A-Za-z][A-Za-z0-9]*)\b/).flatten
end
tags = names.map(&:downcase).tally
Agent::Outcome.ok(tags)
