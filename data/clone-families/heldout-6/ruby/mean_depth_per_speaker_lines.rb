turns = context[:conversation_history] || []
acc = turns.each_with_object({}) do |turn, memo|
  who = turn.fetch(:speaker, "unknown")
  memo[who] ||= [0, 0]
  memo[who][0] += turn[:depth].to_i
  memo[who][1] += 1
end
lines = acc.sort.map { |who, (total, n)| format("%s: mean depth %.3f over %d records", who, total.to_f / n, n) }
lines.empty? ? "no records" : lines.join("\n")
