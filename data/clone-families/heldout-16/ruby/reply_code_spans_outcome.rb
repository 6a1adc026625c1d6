msgs = context[:conversation_history] || []
found = []
msgs.each do |m|
  next unless m[:role] == "assistant"
  body = m[:content]
  next if body.nil? || !body.is_a?(String) || !body.include?("`")

  snippets = []
  body.scan(/`([^`\n]+)`/) do
    snippets << Regexp.last_match(1) unless snippets.include?(Regexp.last_match(1))
  end
  found << { call_id: m[:call_id], spans: snippets, count: snippets.size } unless snippets.empty?
end
Agent::Outcome.ok(found)
