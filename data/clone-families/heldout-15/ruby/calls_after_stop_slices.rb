records = context.fetch(:conversation_history, nil) || []
starts = records.each_index.select { |i| records[i][:role] == "user" }
ignored = []
starts.each_with_index do |from, k|
  upto = starts[k + 1] || records.size
  request = records[from][:content].to_s
  next unless request =~ /\b(?:stop|cancel|abort)\b/i

  ignored.concat(records[(from + 1)...upto].select { |r| r[:role] == "tool" }.map { |r| r[:call_id] })
end
Agent::Outcome.ok(ignored)
