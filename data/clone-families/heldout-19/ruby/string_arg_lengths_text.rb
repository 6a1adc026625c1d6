history = Array(context[:conversation_history])
sums = Hash.new(0)
counts = Hash.new(0)
history.each do |rec|
  name = rec[:method_name].to_s
  next if name.empty?

  Array(rec[:args]).each do |a|
    next unless a.is_a?(String)

    sums[name] += a.size
    counts[name] += 1
  end
end
report = counts.keys.sort.map { |n| "#{n}: #{(sums[n].to_f / counts[n]).round(1)} chars per string argument" }
report.empty? ? "No string arguments were passed." : report.join("\n")
