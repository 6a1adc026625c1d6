history = context[:conversation_history] || []
todo = {}
history.select { |h| h[:role] == "assistant" }.each do |reply|
  text = reply[:content]
  next unless text.is_a?(String) && text.include?("[")

  text.split("\n").each do |line|
    next unless line =~ /\A\s*[-*]\s+\[([ xX])\]\s+(.*\S)/

    box, label = Regexp.last_match(1), Regexp.last_match(2).strip
    todo.delete(label)
    todo[label] = box == " " ? :open : :done
  end
end
open = todo.select { |_l, s| s == :open }.keys
open.empty? ? "Nothing left open." : "Still open:\n" + open.map { |l| "- #{l}" }.join("\n")
