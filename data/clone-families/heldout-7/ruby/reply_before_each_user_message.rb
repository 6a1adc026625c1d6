history = context[:conversation_history] || []
pairs = []
history.each_with_index do |record, i|
  next unless record[:role] == "user"
  answer = nil
  history[0...i].reverse_each do |earlier|
    if earlier[:role] == "assistant"
      answer = earlier[:content]
      break
    end
  end
  pairs << [record[:content], answer]
end
pairs
