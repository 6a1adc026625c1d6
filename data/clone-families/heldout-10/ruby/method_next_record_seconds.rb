require "time"

history = context[:conversation_history] || []
last_used = {}
history.each_with_index do |rec, idx|
  name = rec[:method_name].to_s
  last_used[name] = idx unless name.empty?
end
gaps = {}
last_used.each do |name, idx|
  following = history[idx + 1]
  next unless following
  gaps[name] = (Time.parse(following[:timestamp]) - Time.parse(history[idx][:timestamp])).to_i
end
gaps
