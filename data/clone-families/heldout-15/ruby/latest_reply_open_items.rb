ITEM = /\A\s*[-*]\s+\[([ xX])\]\s+(.*\S)\s*\z/

history = context[:conversation_history] || []
latest = nil
history.each do |rec|
  next unless rec[:role] == "assistant" && rec[:content].is_a?(String)

  state = {}
  rec[:content].split("\n").each do |line|
    m = ITEM.match(line)
    state[m[2]] = (m[1] != " ") if m
  end
  latest = state unless state.empty?
end
(latest || {}).reject { |_item, done| done }.keys
