history = context[:conversation_history] || []

replies = []
history.each_with_index do |rec, i|
  next unless rec[:role] == 'tool' && !rec[:outcome_summary][:ok]
  following = history[i + 1]
  replies << following[:content] if following && following[:role] == 'assistant'
end

replies
