history = context[:conversation_history] || []
reached = {}
history.each_with_index do |msg, i|
  d = msg[:depth]
  next if !d.is_a?(Integer) || reached.key?(d)

  reached[d] = [msg[:call_id], i]
end
if reached.empty?
  "no depth information"
else
  reached.sort.map { |d, (id, i)| "depth #{d}: first reached by #{id} (record #{i})" }.join("\n")
end
