history = context[:conversation_history] || []
order = []
seen = {}
history.each do |entry|
  id = entry[:call_id]
  next if id.nil?
  order << id unless seen.key?(id)
  seen[id] = seen.fetch(id, 0) + 1
end
dupes = order.select { |id| seen[id] > 1 }
{ duplicate_ids: dupes, total_records: history.size }
