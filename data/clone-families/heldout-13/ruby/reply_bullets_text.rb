history = context[:conversation_history] || []
out = []
history.each do |msg|
  next if msg[:role] != "assistant"
  body = msg[:content]
  next if body.nil? || body.empty?
  bullets = 0
  body.each_line do |line|
    bullets += 1 if line =~ /\A[[:blank:]]*([-*]|\d+\.)[[:blank:]]/
  end
  out << "#{msg[:call_id]}: #{bullets} bullet line#{'s' unless bullets == 1}" if bullets > 0
end
out.empty? ? "none of the replies used a list" : out.join("\n")
