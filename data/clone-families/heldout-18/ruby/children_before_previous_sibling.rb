require "time"

history = context[:conversation_history] || []
previous_child = {}
early = []
history.each do |record|
  parent_id = record[:parent_call_id]
  next if parent_id.nil? || parent_id.empty?

  sibling = previous_child[parent_id]
  if sibling && record[:timestamp] && sibling[:timestamp] &&
     Time.parse(record[:timestamp]) < Time.parse(sibling[:timestamp])
    early << record[:call_id]
  end
  previous_child[parent_id] = record
end
early
