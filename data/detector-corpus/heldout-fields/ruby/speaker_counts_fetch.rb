history = context[:conversation_history] || []
counts = Hash.new(0)
history.each do |rec|
  counts[rec.fetch(:speaker, "unknown")] += 1
end
result = counts
