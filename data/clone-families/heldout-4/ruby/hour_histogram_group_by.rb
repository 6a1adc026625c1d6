require 'time'

log = context[:conversation_history] || []
grouped = log.group_by { |entry| Time.parse(entry[:timestamp]).utc.strftime('%H').to_i }
lines = grouped.keys.sort.map do |hour|
  format('%02d:00 %s %d', hour, '#' * grouped[hour].size, grouped[hour].size)
end
lines.empty? ? 'no activity' : lines.join("\n")
