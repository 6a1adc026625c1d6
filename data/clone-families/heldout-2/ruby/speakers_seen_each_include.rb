seen = []
(context[:conversation_history] || []).each do |entry|
  who = entry[:speaker]
  next if who.nil?
  seen << who unless seen.include?(who)
end
result = seen
