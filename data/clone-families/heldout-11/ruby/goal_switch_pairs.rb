history = context[:conversation_history] || []
segments = []
history.each do |rec|
  goal = rec[:goal].to_s
  next if goal.empty?
  segments << goal unless segments.last == goal
end
segments.each_cons(2).map { |from, to| "#{from} -> #{to}" }
