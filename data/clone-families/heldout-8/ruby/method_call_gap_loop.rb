to_utc = lambda { |s| Time.utc(*s.scan(/\d+/).map(&:to_i)) }
target = kwargs[:method]
turns = context[:conversation_history] || []
last_seen = nil
sum = 0.0
n = 0
turns.each do |t|
  next unless t[:method_name] == target
  now = to_utc.call(t[:timestamp])
  if last_seen
    sum += now - last_seen
    n += 1
  end
  last_seen = now
end
[target, n.zero? ? nil : sum / n, n]
