history = context[:conversation_history] || []
children = Hash.new(0)
history.each do |record|
  parent = record[:parent_call_id]
  children[parent] += 1 unless parent.nil? || parent.to_s.empty?
end
history.select do |record|
  parent = record[:parent_call_id]
  !parent.nil? && !parent.to_s.empty? && children[parent] == 1
end.map { |record| record[:call_id] }
