records = context[:conversation_history] || []
last_kwargs = {}
changed = []
records.each do |r|
  name = r[:method_name]
  next if name.nil? || name.empty?
  current = r[:kwargs] || {}
  changed << r[:call_id] if last_kwargs.key?(name) && last_kwargs[name] != current
  last_kwargs[name] = current
end
changed
