history = context[:conversation_history] || []
lines = history.each_with_index.filter_map do |msg, i|
  next unless msg[:role] == "assistant"

  body = (msg[:content] || "").downcase
  next unless body.include?("sorry") || body.include?("apolog") || body.include?("my mistake")

  "##{i} #{msg[:call_id]} at #{msg[:timestamp]}"
end
lines.empty? ? "The assistant never apologised." : "Apologies:\n" + lines.join("\n")
