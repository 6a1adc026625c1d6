history = Array(context[:conversation_history])
per_role = Hash.new(0)
history.each do |rec|
  text = rec[:content]
  next unless text.is_a?(String)

  marked = text.each_line.any? { |line| line.match?(/\b(TODO|FIXME)\b:?[ \t]*(.*)$/) }
  per_role[rec[:role]] += 1 if marked
end
per_role
