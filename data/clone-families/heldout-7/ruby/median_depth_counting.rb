entries = context[:conversation_history] || []
counts = entries.each_with_object(Hash.new(0)) { |e, h| h[e[:depth].to_i] += 1 }
total = entries.size
pick = lambda do |k|
  seen = 0
  counts.keys.sort.each do |d|
    seen += counts[d]
    return d if seen > k
  end
  nil
end
if total == 0
  "no records"
else
  med = (pick.call((total - 1) / 2) + pick.call(total / 2)) / 2.0
  "median depth #{med} over #{total} records"
end
