history = context[:conversation_history] || []
grouped = Hash.new { |h, k| h[k] = [] }
history.each do |step|
  level = step[:depth]
  next unless level.is_a?(Integer) && level >= 2

  out = step[:outcome_summary]
  grouped[level] << step[:call_id] if out.is_a?(Hash) && out[:ok] == false
end
grouped.sort.to_h
