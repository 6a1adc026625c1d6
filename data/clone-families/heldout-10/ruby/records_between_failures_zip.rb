history = context[:conversation_history] || []
failed_at = []
history.each_with_index { |h, i| failed_at << i if h[:outcome_summary] && h[:outcome_summary][:ok] == false }
between = failed_at.drop(1).zip(failed_at).to_h { |cur, prev| [history[cur][:call_id], cur - prev - 1] }
mean = between.empty? ? nil : (between.values.sum.to_f / between.size).round(2)
{ between: between, mean_records_between: mean }
