history = context[:conversation_history] || []
to_time = lambda do |stamp|
  y, mo, d, h, mi, s = stamp.scan(/\d+/).first(6).map(&:to_i)
  Time.utc(y, mo, d, h, mi, s)
end
last_index = {}
history.each_with_index do |step, i|
  last_index[step[:method_name]] = i if step[:method_name] && step[:method_name] != ""
end
now = history.empty? ? nil : to_time.call(history[-1][:timestamp])
last_index.map do |name, i|
  "#{name}: last used #{(now - to_time.call(history[i][:timestamp])).to_i}s before the latest record"
end.join("\n")
