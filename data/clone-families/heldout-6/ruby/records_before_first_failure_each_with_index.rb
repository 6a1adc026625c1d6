log = context[:conversation_history] || []
streak = log.size
log.each_with_index do |entry, pos|
  outcome = entry[:outcome_summary] || {}
  if outcome[:ok] != true
    streak = pos
    break
  end
end
streak
