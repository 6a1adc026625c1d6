require "time"

history = context[:conversation_history] || []
longest = {}
turn = nil
history.each_with_index do |rec, i|
  turn = rec[:call_id] if rec[:role] == "user"
  following = history[i + 1]
  next if turn.nil? || following.nil?

  gap = Time.parse(following[:timestamp]) - Time.parse(rec[:timestamp])
  if longest[turn].nil? || gap > longest[turn][:seconds]
    longest[turn] = { call_id: rec[:call_id], seconds: gap }
  end
end
longest
