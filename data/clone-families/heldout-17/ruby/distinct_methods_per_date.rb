history = context[:conversation_history] || []
per_day = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  ts = rec[:timestamp]
  next unless ts.is_a?(String) && !ts.empty?
  next if rec[:method_name].to_s.empty?

  per_day[ts[0, 10]] |= [rec[:method_name]]
end
per_day.transform_values(&:size)
