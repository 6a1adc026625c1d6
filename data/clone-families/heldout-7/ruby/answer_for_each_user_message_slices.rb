entries = context[:conversation_history] || []
turns = entries.drop_while { |e| e[:role] != "user" }.slice_before { |e| e[:role] == "user" }
turns.map do |turn|
  reply = turn.drop(1).find { |e| e[:role] == "assistant" }
  "Q: #{turn.first[:content]}\nA: #{reply ? reply[:content] : '(no answer)'}"
end.join("\n\n")
