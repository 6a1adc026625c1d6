history = context[:conversation_history] || []
found = []
history.each do |turn|
  next if turn[:role] != "user" || !turn[:content].is_a?(String)

  turn[:content].scan(/\b(?:[01]?\d|2[0-3]):[0-5]\d\b/) { |hit| found << hit }
end
if found.empty?
  "The user has not mentioned any clock time."
else
  found.tally.map { |t, n| n == 1 ? "#{t} (once)" : "#{t} (#{n} times)" }.join("; ")
end
