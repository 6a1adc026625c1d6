history = context[:conversation_history] || []

keys = Hash.new { |h, k| h[k] = [] }
history.each do |rec|
  keys[rec[:method]] |= rec[:kwargs].keys.map(&:to_s)
end

keys.transform_values(&:sort)
