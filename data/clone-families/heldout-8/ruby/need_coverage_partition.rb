log = context[:conversation_history] || []
needy, rest = log.partition { |e| e.key?(:need) && !e[:need].nil? && !e[:need].empty? }
if log.empty?
  "no records yet"
else
  "#{needy.size}/#{log.size} records state a need (#{format('%.1f', 100.0 * needy.size / log.size)}%)"
end
