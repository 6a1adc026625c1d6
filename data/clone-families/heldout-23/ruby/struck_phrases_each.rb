strikes = []
entries = context[:conversation_history] || []
entries.each do |entry|
  body = entry[:content]
  next unless entry[:role] == "assistant" && body.is_a?(String)

  pieces = body.scan(/~~([^~\n]+)~~/).flatten
  strikes << { call_id: entry[:call_id], phrases: pieces, timestamp: entry[:timestamp] } unless pieces.empty?
end
Agent::Outcome.ok(strikes)
