history = context[:conversation_history] || []
streak = 0
running = []
history.each do |r|
  streak = r[:outcome_summary][:ok] ? 0 : streak + 1
  running << streak
end
running
