require "time"

history = context[:conversation_history] || []
waits = {}
history.each_with_index do |rec, i|
  next unless rec[:role] == "assistant"
  text = rec[:content].to_s.strip
  next unless text.end_with?("?")
  reply = history[(i + 1)..].find { |r| r[:role] == "user" }
  next if reply.nil?
  waits[rec[:call_id]] = Time.parse(reply[:timestamp]) - Time.parse(rec[:timestamp])
end
waits
