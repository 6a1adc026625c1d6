require "set"

history = context.fetch(:conversation_history, nil) || []
levels = Hash.new { |h, k| h[k] = Set.new }
history.each do |step|
  next unless step[:method_name] && step[:method_name] != "" && step[:depth].is_a?(Integer)

  levels[step[:method_name]] << step[:depth]
end
multi = levels.select { |_m, s| s.size > 1 }
if multi.empty?
  "Every method stayed at one depth."
else
  multi.map { |m, s| "#{m} ran at depths #{s.to_a.sort.join(', ')}" }.join("\n")
end
