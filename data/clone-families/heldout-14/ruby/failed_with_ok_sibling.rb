history = context[:conversation_history] || []
succeeded = {}
history.each do |rec|
  next unless (rec[:outcome_summary] || {})[:ok] == true

  parent = rec[:parent_call_id].to_s
  method = rec[:method_name].to_s
  next if parent.empty? || method.empty?

  succeeded[[parent, method]] = true
end
failures = []
history.each do |rec|
  next unless (rec[:outcome_summary] || {})[:ok] == false

  key = [rec[:parent_call_id].to_s, rec[:method_name].to_s]
  failures << rec[:call_id] if succeeded[key]
end
failures
