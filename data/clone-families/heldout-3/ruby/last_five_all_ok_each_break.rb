entries = context[:conversation_history] || []
all_good = true
entries.reverse.take(5).each do |entry|
  next if entry[:outcome_summary] && entry[:outcome_summary][:ok]
  all_good = false
  break
end
result = all_good
