history = context[:conversation_history] || []
latest = {}
history.each do |rec|
  (rec[:kwargs] || {}).each do |key, value|
    latest[key] = value if value == true || value == false
  end
end
latest
