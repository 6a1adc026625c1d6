history = context[:conversation_history] || []
best = {}
order = []
turn = nil
history.each do |msg|
  case msg[:role]
  when "user"
    turn = msg[:call_id]
    order << turn
  when "assistant"
    next if turn.nil? || !msg[:content].is_a?(String)

    size = msg[:content].length
    best[turn] = [msg[:call_id], size] if best[turn].nil? || size > best[turn][1]
  end
end
lines = order.select { |t| best.key?(t) }.map { |t| "after #{t}: longest reply #{best[t][0]} (#{best[t][1]} chars)" }
lines.empty? ? "No assistant replies yet." : lines.join("\n")
