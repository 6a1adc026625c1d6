history = context[:conversation_history] || []
sources = history.each_with_object([]) { |record, acc|
  text = record[:content]
  next unless text.is_a?(String)

  text.scan(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/).each { |(src)| acc << src unless acc.include?(src) }
}
Agent::Outcome.ok(sources)
