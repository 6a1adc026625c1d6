entries = Array(context[:conversation_history])
found = []
entries.each_with_index do |entry, pos|
  next unless entry.dig(:outcome_summary, :ok) == false

  lead = entries[[pos - 2, 0].max...pos].map { |earlier| earlier[:call_id] }
  found << { failed_call: entry[:call_id], preceded_by: lead }
end
found
