entries = context.fetch(:conversation_history, nil) || []
markers = Hash.new(0)
entries.each { |entry|
  next unless entry[:role] == "user" && entry[:content].is_a?(String)

  entry[:content].scan(/\[([A-Za-z][\w-]*)\]/).flatten.each { |marker|
    markers[marker.downcase] += 1
  }
}
Agent::Outcome.ok(markers)
