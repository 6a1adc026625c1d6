history = context[:conversation_history] || []
tally = Hash.new { |h, k| h[k] = Hash.new(0) }
history.each do |rec|
  speaker = rec[:speaker]
  method = rec[:method_name]
  next if speaker.to_s.empty? || method.to_s.empty?

  tally[speaker][method] += 1
end
tally
