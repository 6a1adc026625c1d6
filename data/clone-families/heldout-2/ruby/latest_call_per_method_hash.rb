history = context[:conversation_history] || []
latest = {}
history.each do |r|
  next if r[:method_name].nil?
  latest[r[:method_name]] = r
end
result = latest.transform_values { |r| r[:call_id] }
