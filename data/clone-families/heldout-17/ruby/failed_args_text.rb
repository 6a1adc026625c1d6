history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |step|
  method = step[:method_name]
  ok = (step[:outcome_summary] || {})[:ok]
  next if method.nil? || method.empty? || ok != false

  (step[:args] || []).grep(String).uniq.each { |arg| counts[arg] += 1 }
end
if counts.empty?
  "No string argument appears in a failed call."
else
  counts.sort_by { |_, n| -n }.map { |arg, n| "#{arg.inspect} failed in #{n} call(s)" }.join("\n")
end
