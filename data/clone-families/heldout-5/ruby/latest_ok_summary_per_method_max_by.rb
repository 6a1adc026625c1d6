hist = context[:conversation_history] || []
indexed = hist.each_with_index.select { |h, _i| h[:outcome_summary] && h[:outcome_summary][:ok] }

result = {}
indexed.map { |h, _| h[:method_name] }.uniq.each do |name|
  rec, _pos = indexed.select { |h, _| h[:method_name] == name }.max_by { |_, i| i }
  result[name] = rec[:outcome_summary][:summary]
end
result
