records = context[:conversation_history] || []
last_kwargs = nil
changed = []
records.each do |r|
  name = r[:method_name]
  next if name.nil? || name.empty?
  current = r[:kwargs] || {}
  changed << r[:call_id] if !last_kwargs.nil? && last_kwargs != current
  last_kwargs = current
end
changed
