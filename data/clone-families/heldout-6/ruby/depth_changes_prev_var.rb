changed = []
previous = nil
(context[:conversation_history] || []).each do |entry|
  level = entry[:depth].to_i
  changed << entry[:call_id] if !previous.nil? && level != previous
  previous = level
end
changed
