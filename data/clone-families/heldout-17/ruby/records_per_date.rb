history = context[:conversation_history] || []
per_day = Hash.new(0)
history.each do |rec|
  ts = rec[:timestamp]
  next unless ts.is_a?(String) && !ts.empty?

  per_day[ts[0, 10]] += 1
end
per_day
