history = Array(context[:conversation_history])
keys = Hash.new { |h, k| h[k] = [] }
history.each do |entry|
  text = entry[:content]
  next unless text.is_a?(String)

  text.scan(/\b([A-Z][A-Z0-9]+)-(\d+)\b/) { |project, number| keys[project] |= [number] }
end
keys.transform_values(&:size)
