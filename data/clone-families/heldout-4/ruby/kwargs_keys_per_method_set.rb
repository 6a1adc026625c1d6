require 'set'

calls = context[:conversation_history] || []
acc = calls.each_with_object(Hash.new { |h, k| h[k] = Set.new }) do |c, memo|
  bucket = memo[c[:method]]
  (c[:kwargs] || {}).each_key { |key| bucket << key.to_s }
end
acc.sort.map { |method, set| "#{method}: #{set.to_a.sort.join(', ')}" }
