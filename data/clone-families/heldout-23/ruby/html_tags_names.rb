entries = Array(context[:conversation_history])
element_counts = Hash.new(0)
entries.each { |entry|
  next unless entry[:role] == "tool" && entry[:content].is_a?(String)

  entry[:content].scan(/<([A-Za-z][A-Za-z0-9]*)\b/).each { |(tag)| element_counts[tag.downcase] += 1 }
}
Agent::Outcome.ok(element_counts)
