require "time"

log = context[:conversation_history] || []
bursts = []
current = []
last_at = nil
log.each do |entry|
  summary = entry[:outcome_summary] || {}
  next unless summary[:ok] == false
  at = Time.parse(entry[:timestamp])
  if last_at && at - last_at > 60
    bursts << current if current.size > 1
    current = []
  end
  current << entry[:call_id]
  last_at = at
end
bursts << current if current.size > 1
Agent::Outcome.ok(bursts)
