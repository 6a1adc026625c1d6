replies = (context[:conversation_history] || []).select { |r| r[:role] == "assistant" }
rows = []
replies.each do |reply|
  phrases = reply[:content].to_s.downcase.scan(/sorry|apolog\w*|my mistake/)
  rows << { id: reply[:call_id], phrases: phrases.uniq } unless phrases.empty?
end
rows
