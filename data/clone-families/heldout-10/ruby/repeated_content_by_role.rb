history = context[:conversation_history] || []
repeats = Hash.new(0)
previous = {}
history.each do |rec|
  text = rec[:content].to_s.strip
  next if text.empty?
  repeats[rec[:role]] += 1 if previous[rec[:role]] == text
  previous[rec[:role]] = text
end
repeats
