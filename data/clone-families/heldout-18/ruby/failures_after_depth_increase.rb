history = context[:conversation_history] || []
history.each_with_index.select do |record, i|
  outcome = record[:outcome_summary] || {}
  previous = i.positive? ? history[i - 1][:depth] : nil
  outcome[:ok] == false && record[:depth].is_a?(Integer) && previous.is_a?(Integer) && record[:depth] > previous
end.map { |record, _| { call_id: record[:call_id], method: record[:method_name], depth: record[:depth] } }
