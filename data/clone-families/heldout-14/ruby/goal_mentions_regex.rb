records = context[:conversation_history] || []
hits = records.select do |r|
  r[:role] == "assistant" && !r[:goal].to_s.empty? &&
    r[:content].to_s.match?(Regexp.new(Regexp.escape(r[:goal]), Regexp::IGNORECASE))
end
Agent::Outcome.ok(hits.map { |r| { call_id: r[:call_id], goal: r[:goal] } })
