log = context[:conversation_history] || []
so_far = 0
pairs = log.map do |entry|
  so_far += 1 if entry.fetch(:outcome_summary, {})[:ok] == false
  [entry[:call_id], so_far]
end
pairs.to_h
