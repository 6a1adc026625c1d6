require 'time'

records = context[:conversation_history] || []
slots = Array.new(24, 0)
i = 0
while i < records.length
  slots[Time.iso8601(records[i][:timestamp]).utc.hour] += 1
  i += 1
end
slots.each_with_index.reject { |n, _| n.zero? }.map { |n, hour| [hour, n] }
