ITEM = /\A\s*[-*]\s+\[([ xX])\]\s+(.*\S)\s*\z/

history = context[:conversation_history] || []
state = {}
history.each do |rec|
  next unless rec[:role] == "assistant" && rec[:content].is_a?(String)

  rec[:content].split("\n").each do |line|
    m = ITEM.match(line)
    state[m[2]] = (m[1] != " ") if m
  end
end
state.reject { |_item, done| done }.keys
