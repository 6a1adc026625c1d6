history = context[:conversation_history] || []
entries = []

history.each do |rec|
  next unless rec[:speaker] == "calculator"
  next if rec[:method_name] == "history"
  outcome = rec[:outcome_summary] || {}
  next unless outcome[:ok]

  entries << { method: rec[:method_name], args: rec[:args] || [], result: outcome[:value_class] }
end

result = { operations: entries, count: entries.count }
