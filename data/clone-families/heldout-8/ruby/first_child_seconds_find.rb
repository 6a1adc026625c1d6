require "time"

log = context[:conversation_history] || []
log.filter_map do |parent|
  child = log.find { |e| e[:parent_call_id] == parent[:call_id] }
  next unless child
  [parent[:call_id], (Time.parse(child[:timestamp]) - Time.parse(parent[:timestamp])).to_i, parent[:method_name]]
end
