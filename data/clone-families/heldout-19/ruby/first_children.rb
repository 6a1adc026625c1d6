history = context[:conversation_history] || []
seen = Hash.new(0)
history.select do |record|
  parent = record[:parent_call_id]
  next false if parent.nil? || parent.to_s.empty?

  seen[parent] += 1
  seen[parent] == 1
end.map { |record| record[:call_id] }
