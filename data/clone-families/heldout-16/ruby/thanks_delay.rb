require "time"

history = context[:conversation_history] || []
delays = []
last_reply = nil
history.each do |rec|
  if rec[:role] == "assistant"
    last_reply = rec
    next
  end
  next unless rec[:role] == "user" && last_reply

  text = rec[:content]
  next unless text.is_a?(String) && text.match?(/\b(thanks|thank you|thx)\b/i)

  delays << [rec[:call_id], Time.parse(rec[:timestamp]) - Time.parse(last_reply[:timestamp])]
end
delays
