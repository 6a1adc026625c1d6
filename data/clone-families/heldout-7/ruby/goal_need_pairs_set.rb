require "set"

entries = context[:conversation_history] || []
seen = Set.new
lines = []
entries.each do |e|
  g = e.fetch(:goal, nil)
  n = e.fetch(:need, nil)
  next unless g && n && !g.strip.empty? && !n.strip.empty?
  next unless seen.add?([g, n])
  lines << "#{g} -> #{n}"
end
lines.empty? ? "no goal/need pairs" : lines.join("\n")
