width = (kwargs[:width] || 80).to_i
half = width / 2
calls = context[:conversation_history] || []
rows = []
calls.each do |c|
  text = c[:method_name] ? "#{c[:method_name]}(#{(c[:args] || []).join(', ')})" : c[:content].to_s
  rows << format("%-10s %s", c[:speaker], text[0, half])
end
result = rows.join("\n")
