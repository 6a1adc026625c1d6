history = context[:conversation_history] || []
picked = []
history.reverse_each do |rec|
  break if picked.size == 4
  next unless rec.dig(:outcome_summary, :ok)
  picked.unshift("#{rec[:method_name]}(#{Array(rec[:args]).join(', ')}) -> #{rec.dig(:outcome_summary, :value_class)}")
end
result = picked
