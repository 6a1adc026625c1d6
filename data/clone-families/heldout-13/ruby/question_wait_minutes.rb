require "time"

history = context[:conversation_history] || []
lines = []
history.each_with_index do |msg, idx|
  next if msg[:role] != "assistant"
  next unless msg[:content].to_s.strip.end_with?("?")
  user_msg = history.drop(idx + 1).detect do |later|
    later[:role] == "user"
  end
  next unless user_msg
  minutes = (Time.parse(user_msg[:timestamp]) - Time.parse(msg[:timestamp])) / 60.0
  lines << "#{msg[:call_id]}: user answered after #{minutes.round(2)} min"
end
lines.empty? ? "no answered questions from the assistant" : lines.join("\n")
