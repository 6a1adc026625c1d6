history = context[:conversation_history] || []
pairs = []
history.each do |record|
  goal = record[:goal]
  need = record[:need]
  next if goal.nil? || goal.empty? || need.nil? || need.empty?
  pair = [goal, need]
  pairs << pair unless pairs.include?(pair)
end
pairs
