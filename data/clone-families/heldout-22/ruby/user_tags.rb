history = context.fetch(:conversation_history, nil) || []
tags = Hash.new(0)
history.each do |record|
  next unless record[:role] == "user" && record[:content].is_a?(String)

  record[:content].scan(/\[([A-Za-z][\w-]*)\]/).flatten.each do |tag|
    tags[tag.downcase] += 1
  end
end
Agent::Outcome.ok(tags)
