history = context[:conversation_history] || []
succeeded = {}
history.each do |rec|
  next unless (rec[:outcome_summary] || {})[:ok] == true

  parent = rec[:parent_call_id].to_s
  next if parent.empty?

  succeeded[parent] = true
end
parents = []
history.each do |rec|
  next unless (rec[:outcome_summary] || {})[:ok] == false

  key = rec[:parent_call_id].to_s
  parents << key if succeeded[key] && !parents.include?(key)
end
parents
