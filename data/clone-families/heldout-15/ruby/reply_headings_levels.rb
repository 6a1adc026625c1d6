HEADING = /\A(\#{1,6})[ \t]+(.*\S)\s*\z/

rows = []
Array(context[:conversation_history]).each_with_index do |msg, pos|
  next if msg[:role] != "assistant" || !msg[:content].is_a?(String)

  msg[:content].each_line do |line|
    m = HEADING.match(line.chomp)
    next unless m

    rows << { call_id: msg[:call_id], position: pos, level: m[1].length, title: m[2].strip }
  end
end
rows
