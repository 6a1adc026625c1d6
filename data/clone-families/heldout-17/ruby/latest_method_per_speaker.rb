history = context[:conversation_history] || []
latest = {}
history.each do |rec|
  speaker = rec[:speaker]
  method = rec[:method_name]
  next if speaker.to_s.empty? || method.to_s.empty?

  latest[speaker] = method
end
latest
