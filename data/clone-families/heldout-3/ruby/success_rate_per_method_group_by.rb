grouped = (context[:conversation_history] || []).group_by { |e| e[:method_name] }
result = grouped.map do |name, calls|
  good = calls.count { |c| c[:outcome_summary] && c[:outcome_summary][:ok] }
  [name, (good.to_f / calls.size).round(2)]
end.to_h
