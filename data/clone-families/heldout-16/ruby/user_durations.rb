records = context.fetch(:conversation_history, nil) || []
unit_seconds = { "h" => 3600, "m" => 60, "s" => 1 }
totals = {}
records.each do |rec|
  next unless rec[:role] == "user"

  text = rec[:content]
  next unless text.is_a?(String)

  found = text.scan(/(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/i)
  next if found.empty?

  totals[rec[:call_id]] = found.sum { |num, unit| num.to_i * unit_seconds[unit[0].downcase] }
end
totals
