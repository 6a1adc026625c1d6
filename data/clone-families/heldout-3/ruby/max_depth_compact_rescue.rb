begin
  depths = (context[:conversation_history] || []).collect { |h| h[:depth] }.compact
  result = depths.empty? ? 0 : depths.max
rescue StandardError
  result = 0
end
