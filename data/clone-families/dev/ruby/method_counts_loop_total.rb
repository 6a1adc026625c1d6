# Step 2: Design Interface
# - Returns: how many times each method was called, plus the total

history = context[:conversation_history] || []
counts = {}
history.each do |entry|
  next if entry.nil?
  name = entry[:method_name]
  counts[name] ||= 0
  counts[name] += 1
end

result = { counts: counts, total: history.length }
