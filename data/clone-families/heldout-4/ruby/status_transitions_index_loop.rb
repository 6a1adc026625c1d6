log = context[:conversation_history] || []
counts = {}
(1...log.length).each do |i|
  pair = [log[i - 1][:outcome_summary][:status], log[i][:outcome_summary][:status]]
  counts[pair] = counts.fetch(pair, 0) + 1
end
counts.sort_by { |pair, n| [-n, pair] }.map { |(a, b), n| "#{a} -> #{b}: #{n}" }.join("\n")
