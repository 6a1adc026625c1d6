history = context[:conversation_history] || []
latest = {}
history.each do |record|
  next if record[:method_name].to_s.empty?

  outcome = record[:outcome_summary] || {}
  next unless outcome[:ok] == false

  kwargs = record[:kwargs]
  next unless kwargs.is_a?(Hash)

  kwargs.each_key do |key|
    latest[key.to_s] = record[:call_id]
  end
end
latest
