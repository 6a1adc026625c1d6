require "time"

history = context[:conversation_history] || []
by_id = history.to_h { |r| [r[:call_id], r] }
result = {}
history.each do |r|
  parent = by_id[r[:parent_call_id]]
  next if parent.nil?
  result[parent[:call_id]] = Time.parse(r[:timestamp]) - Time.parse(parent[:timestamp])
end
result
