history = context[:conversation_history] || []
int_counts = Hash.new(0)
history.each do |call|
  name = call[:method_name]
  next if name.nil? || name.empty?

  found = Array(call[:args]).count { |arg| arg.is_a?(Integer) }
  int_counts[name] += found if found.positive?
end
int_counts
