history = context[:conversation_history] || []
thanks_re = /\b(thanks|thank you|thx)\b/i
winners = []
history.each.with_index(1) do |step, nxt_index|
  following = history[nxt_index]
  break if following.nil?
  next unless step[:role] == "assistant"

  winners << step[:call_id] if following[:role] == "user" && following[:content].is_a?(String) && thanks_re.match?(following[:content])
end
Agent::Outcome.ok(winners)
