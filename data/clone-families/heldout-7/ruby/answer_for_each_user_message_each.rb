history = context[:conversation_history] || []
pairs = []
history.each_with_index do |record, i|
  next unless record[:role] == "user"
  answer = nil
  history[(i + 1)..].each do |later|
    break if later[:role] == "user"
    if later[:role] == "assistant"
      answer = later[:content]
      break
    end
  end
  pairs << [record[:content], answer]
end
pairs
