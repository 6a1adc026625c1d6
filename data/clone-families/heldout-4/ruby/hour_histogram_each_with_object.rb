require 'time'

BAR_WIDTH = 20

entries = context[:conversation_history] || []
per_hour = entries.each_with_object({}) do |e, acc|
  stamp = e[:timestamp]
  next if stamp.nil?
  h = Time.iso8601(stamp).utc.hour
  acc[h] = (acc[h] || 0) + 1
end
busiest = per_hour.values.max || 0
{
  histogram: per_hour.sort.map { |h, n| { hour: h, calls: n } },
  busiest_count: busiest,
  scale: busiest.zero? ? 0 : BAR_WIDTH.fdiv(busiest)
}
