log = context[:conversation_history] || []
starts = log.each_index.select { |i| log[i][:role] == 'user' }
bounds = starts + [log.length]
starts.each_with_index.map do |s, n|
  "turn #{n + 1}: #{bounds[n + 1] - s - 1} records"
end
