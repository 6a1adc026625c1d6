calls = context[:conversation_history] || []
report = calls.each_with_object([]) do |call, acc|
  outcome = call[:outcome_summary] || {}
  next if outcome[:ok]
  acc << "#{call[:timestamp]} #{call[:method_name]}: #{outcome[:error_type]}"
end
result = report.join("\n")
