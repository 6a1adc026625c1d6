require "time"

history = context[:conversation_history] || []
spent = Hash.new(0.0)
history.each_cons(2) do |prev, rec|
  goal = rec[:goal]
  next if goal.nil? || goal.empty?
  spent[goal] += Time.parse(rec[:timestamp]) - Time.parse(prev[:timestamp])
end
spent
