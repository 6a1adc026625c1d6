sources = []
history = context[:conversation_history] || []
history.each do |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next unless text.is_a?(String) && !text.empty?

  text.scan(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/).each do |(src)|
    sources << src unless sources.include?(src)
  end
end
Agent::Outcome.ok(sources)
