records = context[:conversation_history] || []
last_use = {}
records.each do |r|
  (r[:kwargs] || {}).each_key do |key|
    last_use[key] = r[:call_id]
  end
end
last_use
