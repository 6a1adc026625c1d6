history = context[:conversation_history] || []
failures = 0
running = []
history.each do |r|
  failures += 1 unless r[:outcome_summary][:ok]
  running << failures
end
running
