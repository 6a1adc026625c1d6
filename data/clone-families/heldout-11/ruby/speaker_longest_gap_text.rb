require "time"

history = context[:conversation_history] || []
speakers = history.map { |r| r[:speaker] }.compact.reject(&:empty?).uniq
lines = speakers.map do |who|
  times = history.select { |r| r[:speaker] == who }.map { |r| Time.parse(r[:timestamp]) }
  next "#{who}: only one record" if times.size < 2
  gap = (1...times.size).map { |i| times[i] - times[i - 1] }.max
  "#{who}: longest silence #{gap.to_i}s"
end
lines.empty? ? "empty history" : lines.join("\n")
