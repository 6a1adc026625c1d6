history = context[:conversation_history] || []
latest = {}
history.each do |record|
  goal = record[:goal]
  need = record[:need]
  next if goal.nil? || goal.empty? || need.nil? || need.empty?
  latest[goal] = need
end
latest
