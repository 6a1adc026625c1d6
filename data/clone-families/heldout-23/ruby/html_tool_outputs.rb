history = Array(context[:conversation_history])
with_tags = []
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  with_tags << record[:call_id] if record[:content].match?(/<([A-Za-z][A-Za-z0-9]*)\b/)
end
Agent::Outcome.ok(with_tags)
