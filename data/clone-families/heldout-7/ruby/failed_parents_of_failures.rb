history = context[:conversation_history] || []
by_id = {}
history.each { |r| by_id[r[:call_id]] = r }
parents = []
history.each do |record|
  next if record.dig(:outcome_summary, :ok)
  parent = by_id[record[:parent_call_id]]
  next if parent.nil?
  parents << parent[:call_id] unless parent.dig(:outcome_summary, :ok) || parents.include?(parent[:call_id])
end
parents
