require "time"

history = context[:conversation_history] || []
waits = {}
history.each_with_index do |rec, i|
  next unless rec[:role] == "assistant"
  text = rec[:content].to_s.strip
  next unless text.end_with?("?")
  prompt = history[0...i].reverse.find { |r| r[:role] == "user" }
  next if prompt.nil?
  waits[rec[:call_id]] = Time.parse(rec[:timestamp]) - Time.parse(prompt[:timestamp])
end
waits
