require "time"

history = Array(context[:conversation_history])
parsed = history.map { |r| [r, r[:timestamp] ? Time.iso8601(r[:timestamp]) : nil] }
newest = parsed.map(&:last).compact.max
window = Hash.new(0)
parsed.each do |rec, at|
  next if newest.nil? || at.nil?
  next unless rec[:role] == "tool" && rec[:method_name].is_a?(String) && !rec[:method_name].empty?

  window[rec[:method_name]] += 1 if (newest - at) / 60.0 <= 15
end
if window.empty?
  "No tool calls in the last 15 minutes."
else
  "Tool calls in the last 15 minutes:\n" + window.sort_by { |m, n| [-n, m] }.map { |m, n| "- #{m}: #{n}" }.join("\n")
end
