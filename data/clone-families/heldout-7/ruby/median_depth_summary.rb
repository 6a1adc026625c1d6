log = context[:conversation_history] || []
levels = log.map { |e| e.fetch(:depth, 0).to_i }
sorted = levels.sort
n = sorted.size
median = n.zero? ? nil : (sorted[(n - 1) / 2] + sorted[n / 2]) / 2.0
{ median_depth: median, min: sorted.first, max: sorted.last, records: n }
