history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |rec|
  (rec[:kwargs] || {}).each do |key, value|
    counts[key] += 1 if value == true
  end
end
counts
