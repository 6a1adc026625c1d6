require "time"

history = Array(context[:conversation_history])
latest = history.filter_map { |m| m[:timestamp] && Time.iso8601(m[:timestamp]) }.max
recent = history.select do |m|
  m[:role] == "user" && m[:content].is_a?(String) && m[:timestamp] &&
    latest - Time.iso8601(m[:timestamp]) <= 86_400
end
if recent.empty?
  "The user sent no message in the last 24 hours."
else
  "User messages in the last 24 hours:\n" + recent.map { |m| "- #{m[:content]}" }.join("\n")
end
