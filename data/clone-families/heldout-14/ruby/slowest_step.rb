require "time"

history = context[:conversation_history] || []
slowest = {}
turn = nil
previous = nil
history.each do |rec|
  at = Time.parse(rec[:timestamp])
  if rec[:role] == "user"
    turn = rec[:call_id]
  elsif turn
    gap = at - previous
    if slowest[turn].nil? || gap > slowest[turn][:seconds]
      slowest[turn] = { call_id: rec[:call_id], seconds: gap }
    end
  end
  previous = at
end
slowest
