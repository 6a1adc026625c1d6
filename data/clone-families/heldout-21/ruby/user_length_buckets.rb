history = Array(context[:conversation_history])
buckets = { short: 0, medium: 0, long: 0 }
history.each do |record|
  text = record[:content]
  next unless record[:role] == "user" && text.is_a?(String)

  if text.length < 40
    buckets[:short] += 1
  elsif text.length < 200
    buckets[:medium] += 1
  else
    buckets[:long] += 1
  end
end
buckets
