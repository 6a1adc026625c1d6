history = Array(context[:conversation_history])
notes = []
history.each do |rec|
  text = rec[:content]
  next unless text.is_a?(String)

  text.each_line do |line|
    m = line.match(/\b(TODO|FIXME)\b:?[ \t]*(.*)$/)
    notes << [rec[:call_id], m[1], m[2].strip] if m
  end
end
notes
