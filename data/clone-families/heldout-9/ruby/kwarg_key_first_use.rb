records = context[:conversation_history] || []
first_use = {}
records.each do |r|
  (r[:kwargs] || {}).each_key do |key|
    first_use[key] ||= r[:call_id]
  end
end
first_use
