history = context[:conversation_history] || []
headings = {}
history.each do |rec|
  next unless rec[:role] == "assistant"

  text = rec[:content]
  next unless text.is_a?(String)

  titles = text.split("\n").filter_map do |line|
    m = line.match(/\A\#{1,6}[ \t]+(.*\S)/)
    m && m[1].strip
  end
  headings[rec[:call_id]] = titles unless titles.empty?
end
headings
