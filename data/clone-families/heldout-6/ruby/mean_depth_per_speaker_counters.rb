history = context[:conversation_history] || []
sums = Hash.new(0)
counts = Hash.new(0)
history.each do |record|
  speaker = record[:speaker]
  sums[speaker] += record[:depth] || 0
  counts[speaker] += 1
end
sums.map { |speaker, total| [speaker, total.to_f / counts[speaker]] }.to_h
