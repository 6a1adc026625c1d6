entries = context[:conversation_history] || []
urls = []
entries.each { |entry|
  body = entry[:content]
  next unless body.is_a?(String)

  body.scan(/!\[[^\]]*\]\(([^)\s]+)[^)]*\)/).each { |(url)| urls << url unless urls.include?(url) }
}
Agent::Outcome.ok(urls)
