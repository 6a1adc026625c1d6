history = context[:conversation_history] || []
first_seen = {}
history.each do |rec|
  depth = rec[:depth]
  next unless depth.is_a?(Integer)

  first_seen[depth] ||= rec[:call_id]
end
first_seen.sort.to_h
