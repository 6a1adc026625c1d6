history = context[:conversation_history] || []
deepest = {}
current = nil
history.each do |rec|
  current = rec[:call_id] if rec[:role] == "user"
  next if current.nil?
  depth = rec[:depth]
  next unless depth.is_a?(Integer)
  deepest[current] = depth
end
deepest
