history = context[:conversation_history] || []
counts = history.each_with_object({}) do |entry, acc|
  stamp = entry[:timestamp].to_s
  next if stamp.empty?

  day = stamp.split("T").first
  acc[day] = (acc[day] || 0) + 1
end
if counts.empty?
  "No timestamped records."
else
  counts.sort.map { |day, n| "#{day}: #{n} record#{n == 1 ? '' : 's'}" }.join("\n")
end
