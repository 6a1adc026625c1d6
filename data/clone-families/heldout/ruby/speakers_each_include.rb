seen = []
(context[:conversation_history] || []).each do |turn|
  role = turn[:speaker]
  next if role.nil?
  seen << role unless seen.include?(role)
end
result = seen
