records = context[:conversation_history] || []
latest = {}
by_role = records.group_by { |r| r[:speaker] }
by_role.each do |role, recs|
  latest[role] = recs.max_by { |r| r[:timestamp].to_s }[:timestamp]
end
result = latest
