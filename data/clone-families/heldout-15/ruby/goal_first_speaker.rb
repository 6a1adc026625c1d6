history = context[:conversation_history] || []
first_speaker = {}
history.each do |rec|
  goal = rec[:goal]
  who = rec[:speaker]
  next if goal.nil? || goal.empty? || who.nil? || who.empty?

  first_speaker[goal] ||= who
end
first_speaker
