history = context[:conversation_history] || []
history.select do |record|
  outcome = record[:outcome_summary] || {}
  outcome[:ok] == false && record[:depth].is_a?(Integer) && record[:depth] >= 2
end.map { |record| { call_id: record[:call_id], method: record[:method_name], depth: record[:depth] } }
