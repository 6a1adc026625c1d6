log = context[:conversation_history] || []
done_at = {}
log.each do |entry|
  next if entry[:goal].to_s.empty?
  next unless (entry[:outcome_summary] || {})[:ok] == true
  done_at[entry[:goal]] ||= entry[:timestamp]
end
Agent::Outcome.ok(done_at.map { |goal, at| { goal: goal, first_success_at: at } })
