history = context[:conversation_history] || []
sources = []
history.each do |record|
  text = record[:content]
  next unless text.is_a?(String)

  text.scan(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/).each do |(src)|
    sources << src unless sources.include?(src)
  end
end
Agent::Outcome.ok(sources)
