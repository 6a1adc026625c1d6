history = context[:conversation_history] || []
speakers = {}
history.each do |rec|
  goal = rec[:goal]
  who = rec[:speaker]
  next if goal.nil? || goal.empty? || who.nil? || who.empty?

  speakers[goal] ||= []
  speakers[goal] << who unless speakers[goal].include?(who)
end
speakers
