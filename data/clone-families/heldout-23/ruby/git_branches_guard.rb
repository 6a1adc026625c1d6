entries = Array(context[:conversation_history])
seen = []
entries.each do |entry|
  next unless entry.is_a?(Hash)
  next unless entry[:role] == "tool" && entry[:content].is_a?(String)
  next unless entry[:content].include?("branch")

  entry[:content].scan(%r{^(?:On branch |Switched to (?:a new )?branch ')([\w./-]+)}).each do |(branch)|
    seen << branch unless seen.include?(branch)
  end
end
Agent::Outcome.ok(seen)
