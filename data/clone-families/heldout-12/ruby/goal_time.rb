require "time"

history = context[:conversation_history] || []
spent = Hash.new(0.0)
history.each_cons(2) do |rec, nxt|
  goal = rec[:goal]
  next if goal.nil? || goal.empty?
  spent[goal] += Time.parse(nxt[:timestamp]) - Time.parse(rec[:timestamp])
end
spent
