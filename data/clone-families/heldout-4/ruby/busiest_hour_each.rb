require 'time'

history = context[:conversation_history] || []

counts = Hash.new(0)
history.each do |rec|
  hour = Time.iso8601(rec[:timestamp]).utc.hour
  counts[hour] += 1
end

best = counts.max_by { |hour, n| [n, -hour] }
best && { hour: best[0], calls: best[1] }
