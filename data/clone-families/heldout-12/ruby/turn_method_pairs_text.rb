def turn_methods(records)
  records.slice_before { |r| r[:role] == "user" }
         .select { |chunk| chunk.first[:role] == "user" }
         .map { |chunk| chunk.drop(1).map { |r| r[:method_name] }.reject { |m| m.nil? || m.empty? }.uniq }
end

history = context[:conversation_history] || []
tally = turn_methods(history).flat_map { |ms| ms.sort.combination(2).to_a }.tally
if tally.empty?
  "no two tools were used in the same turn"
else
  tally.sort_by { |pair, n| [-n, pair] }.map { |(a, b), n| "#{a} & #{b}: #{n} turn(s)" }.join("\n")
end
