history = context[:conversation_history] || []
report = ""
history.each do |rec|
  next unless rec[:speaker] == "tool"
  next unless rec[:outcome_summary].to_s =~ /timeout|error/i
  report << "#{rec[:call_id]}: #{rec[:method_name]}\n"
end
result = report.empty? ? "no failures" : report
