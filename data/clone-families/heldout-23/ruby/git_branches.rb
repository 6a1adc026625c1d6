history = Array(context[:conversation_history])
branches = []
history.each do |record|
  next unless record[:role] == "tool" && record[:content].is_a?(String)

  record[:content].scan(%r{^(?:On branch |Switched to (?:a new )?branch ')([\w./-]+)}).each do |(name)|
    branches << name unless branches.include?(name)
  end
end
Agent::Outcome.ok(branches)
