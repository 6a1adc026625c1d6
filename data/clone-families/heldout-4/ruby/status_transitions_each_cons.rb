history = context[:conversation_history] || []

transitions = Hash.new(0)
history.each_cons(2) do |prev, cur|
  transitions["#{prev[:outcome_summary][:status]}->#{cur[:outcome_summary][:status]}"] += 1
end

transitions
