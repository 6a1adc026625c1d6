log = context[:conversation_history] || []
leaves = []
log.each do |e|
  has_child = log.any? { |o| o[:parent_call_id] == e[:call_id] }
  leaves << "#{e[:call_id]} (#{e[:method_name]})" unless has_child
end
"#{leaves.size} leaf calls: #{leaves.join(', ')}"
