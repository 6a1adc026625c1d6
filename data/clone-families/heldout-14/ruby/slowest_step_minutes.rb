require "time"

history = context[:conversation_history] || []
owner = nil
best = Hash.new { |h, k| h[k] = [nil, -1.0] }
history.each_cons(2) do |prev, cur|
  owner = prev[:call_id] if prev[:role] == "user"
  next if owner.nil? || cur[:role] == "user"

  wait = Time.parse(cur[:timestamp]) - Time.parse(prev[:timestamp])
  best[owner] = [cur[:call_id], wait] if wait > best[owner][1]
end
lines = best.map { |t, (cid, secs)| format("turn %s: %s waited %.2f min", t, cid, secs / 60.0) }
lines.empty? ? "no turn has more than one record" : lines.join("\n")
