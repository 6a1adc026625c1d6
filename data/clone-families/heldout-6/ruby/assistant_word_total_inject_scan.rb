turns = context[:conversation_history] || []
mine = turns.filter { |t| t[:speaker] == "assistant" && t[:role] == "assistant" }
total = mine.inject(0) { |acc, t| acc + t[:content].to_s.scan(/\S+/).count }
"The assistant has written #{total} words so far."
