input = context[:input].to_s.strip
numbers = input.scan(/-?\d+(?:\.\d+)?/).map(&:to_f)
sum = numbers.sum

history = context[:conversation_history] || []
tally = Hash.new(0)
history.each { |h| tally[h[:method_name]] += 1 }
lines = tally.map { |name, n| "#{name} x#{n}" }
result = "sum=#{sum}\n" + lines.join("\n")
