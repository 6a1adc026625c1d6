records = context.fetch(:conversation_history, nil) || []
unit_names = { "h" => "hours", "m" => "minutes", "s" => "seconds" }
used = Hash.new(0)
records.each do |rec|
  next unless rec[:role] == "user"

  text = rec[:content]
  next unless text.is_a?(String)

  found = text.scan(/(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/i)
  next if found.empty?

  found.map { |_num, unit| unit_names[unit[0].downcase] }.uniq.each { |name| used[name] += 1 }
end
used
