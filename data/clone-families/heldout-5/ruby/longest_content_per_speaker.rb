history = context[:conversation_history] || []

best = {}
history.each do |rec|
  len = (rec[:content] || "").length
  who = rec[:speaker]
  best[who] = [rec[:call_id], len] if best[who].nil? || len > best[who][1]
end

best
