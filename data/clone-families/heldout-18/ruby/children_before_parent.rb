require "time"

history = context[:conversation_history] || []
by_id = {}
history.each { |r| by_id[r[:call_id]] = r if r[:call_id] }
early = []
history.each do |record|
  parent = by_id[record[:parent_call_id]]
  next unless parent && record[:timestamp] && parent[:timestamp]

  early << record[:call_id] if Time.parse(record[:timestamp]) < Time.parse(parent[:timestamp])
end
early
