history = Array(context[:conversation_history])
first_lines = []
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  first_lines << [record[:call_id], record[:content].lines.first.to_s.chomp]
end
Agent::Outcome.ok(first_lines)
