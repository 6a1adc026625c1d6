msgs = context[:conversation_history] || []
seen = {}
msgs.each do |msg|
  body = msg[:content]
  next unless body.is_a?(String)

  body.scan(/\b[A-Z][A-Z0-9]+-\d+\b/).each do |key|
    seen[key] ||= 0
    seen[key] += 1
  end
end
summary = seen.empty? ? "No ticket keys mentioned." : seen.map { |k, n| "#{k} (#{n}x)" }.join(", ")
Agent::Outcome.ok(summary)
