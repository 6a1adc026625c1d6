log = context[:conversation_history] || []
stretches = Hash.new(0)
current = nil
log.each do |entry|
  g = entry[:goal]
  next unless g.is_a?(String) && !g.empty?
  stretches[g] += 1 if g != current
  current = g
end
comebacks = stretches.keys.select { |g| stretches[g] > 1 }
comebacks.empty? ? "no goal was picked up again" : "resumed after a switch: #{comebacks.join(', ')}"
