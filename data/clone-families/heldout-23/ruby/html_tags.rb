history = Array(context[:conversation_history])
tags = Hash.new(0)
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  record[:content].scan(/<([A-Za-z][A-Za-z0-9]*)\b/).each do |(name)|
    tags[name.downcase] += 1
  end
end
Agent::Outcome.ok(tags)
