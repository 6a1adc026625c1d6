buckets = { under_40: 0, under_200: 0, longer: 0 }
history = Array(context[:conversation_history])
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  if text.length < 40
    buckets[:under_40] += 1
  elsif text.length < 200
    buckets[:under_200] += 1
  else
    buckets[:longer] += 1
  end
end
buckets
