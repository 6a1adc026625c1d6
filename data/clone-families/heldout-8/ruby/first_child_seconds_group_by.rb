require "time"

msgs = context[:conversation_history] || []
stamp = msgs.to_h { |m| [m[:call_id], m[:timestamp]] }
grouped = msgs.select { |m| stamp.key?(m[:parent_call_id]) }.group_by { |m| m[:parent_call_id] }
grouped.transform_values do |kids|
  earliest = kids.map { |k| k[:timestamp] }.min
  { minutes: ((Time.iso8601(earliest) - Time.iso8601(stamp[kids.first[:parent_call_id]])) / 60.0).round(2),
    children: kids.size }
end
