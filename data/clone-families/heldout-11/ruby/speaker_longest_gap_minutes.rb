require "time"

records = context[:conversation_history] || []
stamps = Hash.new { |h, k| h[k] = [] }
records.each do |r|
  next if r[:speaker].nil? || r[:speaker].empty?
  stamps[r[:speaker]] << Time.iso8601(r[:timestamp])
end
minutes = {}
stamps.each do |who, times|
  next if times.size < 2
  widest = times.each_cons(2).map { |a, b| b - a }.max
  minutes[who] = (widest / 60.0).round(1)
end
minutes
