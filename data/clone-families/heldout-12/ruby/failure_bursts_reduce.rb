require "time"

history = context[:conversation_history] || []
failed = history.find_all { |h| (h[:outcome_summary] || {})[:ok] == false }
groups = failed.each_with_object([]) do |rec, acc|
  stamp = Time.parse(rec[:timestamp])
  if acc.any? && stamp - acc.last[:ended] <= 60
    acc.last[:ids] << rec[:call_id]
    acc.last[:ended] = stamp
  else
    acc << { ids: [rec[:call_id]], started: stamp, ended: stamp }
  end
end
groups.select { |g| g[:ids].length > 1 }.map do |g|
  { start: g[:ids].first, size: g[:ids].length, span_seconds: (g[:ended] - g[:started]).to_i }
end
