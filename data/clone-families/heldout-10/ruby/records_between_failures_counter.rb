log = context[:conversation_history] || []
since = nil
lines = []
log.each do |entry|
  status = (entry[:outcome_summary] || {})[:status]
  if status && status != "ok"
    lines << "#{entry[:call_id]}: #{since} records since the previous failure" unless since.nil?
    since = 0
  elsif !since.nil?
    since += 1
  end
end
lines.empty? ? "fewer than two failures" : lines.join("\n")
