entries = Array(context[:conversation_history])
whys = []
entries.each do |entry|
  body = entry[:content]
  next unless entry[:role] == "user" && body.is_a?(String) && body.match?(/\A\s*why\b/i)

  whys << { message: entry[:call_id], question: body.strip.lines.first.chomp }
end
Agent::Outcome.ok(whys)
