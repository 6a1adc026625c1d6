history = context[:conversation_history] || []
depths = history.map { |r| r[:depth] || 0 }.uniq.sort
if depths.empty?
  nil
else
  mid = depths.size / 2
  depths.size.odd? ? depths[mid].to_f : (depths[mid - 1] + depths[mid]) / 2.0
end
