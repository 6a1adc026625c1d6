history = context[:conversation_history] || []
first_seen = {}
history.each do |rec|
  depth = rec[:depth]
  next unless depth.is_a?(Integer)
  next unless (rec[:outcome_summary] || {})[:ok] == false

  first_seen[depth] ||= rec[:call_id]
end
first_seen.sort.to_h
