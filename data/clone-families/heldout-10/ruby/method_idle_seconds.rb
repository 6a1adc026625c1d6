require "time"

history = context[:conversation_history] || []
last_used = {}
history.each do |rec|
  name = rec[:method_name].to_s
  last_used[name] = Time.parse(rec[:timestamp]) unless name.empty?
end
finished = history.empty? ? nil : Time.parse(history.last[:timestamp])
last_used.transform_values { |t| (finished - t).to_i }
