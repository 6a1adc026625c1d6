require 'time'

history = context[:conversation_history] || []

counts = Hash.new(0)
history.each do |rec|
  hour = Time.iso8601(rec[:timestamp]).utc.hour
  counts[hour] += 1
end

counts.sort.to_h
