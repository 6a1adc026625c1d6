history = context[:conversation_history] || []
replies = history.select { |record| record[:role] == "assistant" && record[:content].is_a?(String) }
struck = replies.map do |record|
  { call_id: record[:call_id], phrases: record[:content].scan(/~~([^~\n]+)~~/).flatten }
end
struck = struck.reject { |item| item[:phrases].empty? }
Agent::Outcome.ok(struck)
