history = context[:conversation_history] || []
replies_per_title = Hash.new(0)
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content]
  next unless text.is_a?(String)

  titles = text.split("\n").filter_map do |line|
    m = line.match(/\A\#{1,6}[ \t]+(.*\S)/)
    m && m[1].strip
  end
  titles.uniq.each { |t| replies_per_title[t] += 1 }
end
replies_per_title.select { |_t, n| n > 1 }.keys.sort
