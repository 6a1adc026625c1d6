history = context[:conversation_history] || []
latest_request = nil
repeated = []
replies = 0
history.each do |entry|
  role = entry[:role]
  if role == "user"
    text = entry[:content]
    latest_request = text.is_a?(String) && !text.strip.empty? ? text.strip.downcase : nil
  elsif role == "assistant"
    replies += 1
    body = entry[:content]
    repeated << entry[:call_id] if latest_request && body.is_a?(String) && body.downcase[latest_request]
  end
end
{ echoing_replies: repeated, replies: replies }
