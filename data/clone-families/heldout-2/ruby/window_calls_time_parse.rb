require 'time'

lo = Time.parse(args[0].to_s)
hi = Time.parse(args[1].to_s)
ids = []
(context[:conversation_history] || []).each do |entry|
  next if entry[:timestamp].nil?
  t = Time.parse(entry[:timestamp].to_s)
  next if t < lo || t > hi
  ids << entry[:call_id]
end
result = ids
