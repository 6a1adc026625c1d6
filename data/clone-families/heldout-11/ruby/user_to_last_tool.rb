require "time"

history = context[:conversation_history] || []
waits = {}
current_user = nil
history.each do |rec|
  if rec[:role] == "user"
    current_user = rec
    next
  end
  next unless current_user && rec[:role] == "tool"
  waits[current_user[:call_id]] = Time.parse(rec[:timestamp]) - Time.parse(current_user[:timestamp])
end
waits
