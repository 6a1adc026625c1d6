require "time"

log = context[:conversation_history] || []
grouped = log.reject { |e| e[:speaker].to_s.empty? }.group_by { |e| e[:speaker] }
grouped.filter_map do |who, entries|
  next if entries.size < 2
  gaps = entries.each_cons(2).map { |prev, cur| [(Time.parse(cur[:timestamp]) - Time.parse(prev[:timestamp])).to_i, cur[:call_id]] }
  seconds, resumed_at = gaps.max_by(&:first)
  { speaker: who, longest_gap_seconds: seconds, resumed_at: resumed_at, records: entries.size }
end
