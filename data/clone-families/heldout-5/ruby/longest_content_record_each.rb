history = context[:conversation_history] || []

best = nil
history.each do |rec|
  len = (rec[:content] || "").length
  best = [rec[:call_id], len] if best.nil? || len > best[1]
end

best
