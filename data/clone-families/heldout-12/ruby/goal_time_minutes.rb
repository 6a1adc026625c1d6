require "time"

history = context[:conversation_history] || []
minutes = Hash.new(0)
history.zip(history.drop(1)).each do |current, following|
  break if following.nil?
  g = current[:goal]
  next unless g.is_a?(String) && !g.empty?
  minutes[g] += (Time.parse(following[:timestamp]) - Time.parse(current[:timestamp])) / 60.0
end
minutes.transform_values { |m| m.round(2) }
