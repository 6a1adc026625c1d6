pairs = []
current = nil
Array(context[:conversation_history]).each do |msg|
  case msg[:role]
  when "user"
    current = msg
  when "assistant"
    next if current.nil?

    q = current[:content]
    a = msg[:content]
    next if !q.is_a?(String) || q.strip.empty? || !a.is_a?(String)

    pairs << { reply: msg[:call_id], request: current[:call_id], text: q.strip } if a.downcase.include?(q.strip.downcase)
  end
end
pairs
