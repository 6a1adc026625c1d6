history = context[:conversation_history] || []
pattern = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/
names = Hash.new { |h, k| h[k] = [] }
history.each do |record|
  next unless record[:role] == "tool"
  next unless record[:content].is_a?(String)

  found = record[:content].scan(pattern)
  names[record[:method_name]] |= found unless found.empty?
end
names
