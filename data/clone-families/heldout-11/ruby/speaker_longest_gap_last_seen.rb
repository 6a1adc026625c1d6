require "time"

def epoch(ts)
  Time.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").to_i
end

history = context[:conversation_history] || []
previous = {}
widest = Hash.new(0)
participants = Hash.new(0)
history.each do |rec|
  who = rec[:speaker]
  next unless who.is_a?(String) && !who.empty?
  t = epoch(rec[:timestamp])
  participants[who] += 1
  widest[who] = [widest[who], t - previous[who]].max if previous[who]
  previous[who] = t
end
Agent::Outcome.ok(widest.select { |who, _| participants[who] > 1 })
