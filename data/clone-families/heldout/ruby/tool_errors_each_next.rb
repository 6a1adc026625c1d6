history = context[:conversation_history] || []
ids = []
history.each do |entry|
  next unless entry[:speaker] == "tool"
  outcome = entry[:outcome_summary] || {}
  next if outcome[:ok]
  ids << entry[:call_id]
end
result = ids
