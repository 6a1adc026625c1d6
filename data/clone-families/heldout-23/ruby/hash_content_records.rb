history = context[:conversation_history] || []
hash_records = []
history.each do |record|
  role = record[:role]
  next if role.to_s.empty?

  hash_records << [record[:call_id], role] if record[:content].is_a?(Hash)
end
hash_records
