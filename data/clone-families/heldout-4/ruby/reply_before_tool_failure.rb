history = context[:conversation_history] || []

replies = []
history.each_with_index do |rec, i|
  next unless rec[:role] == 'tool' && !rec[:outcome_summary][:ok]
  preceding = i.positive? ? history[i - 1] : nil
  replies << preceding[:content] if preceding && preceding[:role] == 'assistant'
end

replies
