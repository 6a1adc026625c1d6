words = 0
replies = 0
(context[:conversation_history] || []).each do |msg|
  next unless msg[:role] == "assistant"
  replies += 1
  words += (msg[:content] || "").split(/\s+/).reject(&:empty?).length
end
{ words: words, replies: replies }
