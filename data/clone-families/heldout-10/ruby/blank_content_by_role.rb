history = context[:conversation_history] || []
blank = Hash.new(0)
history.each do |rec|
  text = rec[:content].to_s.strip
  blank[rec[:role]] += 1 if text.empty?
end
blank
