tags = Hash.new(0)
history = context.fetch(:conversation_history, nil) || []
history.each do |record|
  next unless record.is_a?(Hash)
  next unless record[:role] == "user" && record[:content].is_a?(String)
  next unless record[:content].include?("[")

  record[:content].scan(/\[([A-Za-z][\w-]*)\]/).flatten.each do |tag|
    tags[tag.downcase] += 1
  end
end
Agent::Outcome.ok(tags)
