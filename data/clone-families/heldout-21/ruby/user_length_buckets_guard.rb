history = Array(context[:conversation_history])
buckets = { brief: 0, moderate: 0, lengthy: 0 }
history.each do |record|
  next unless record.is_a?(Hash)

  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  if text.length < 40
    buckets[:brief] += 1
  elsif text.length < 200
    buckets[:moderate] += 1
  else
    buckets[:lengthy] += 1
  end
end
buckets
