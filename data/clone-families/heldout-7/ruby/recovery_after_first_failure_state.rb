require "time"

log = context[:conversation_history] || []
first_fail = nil
answer = nil
log.each do |entry|
  ok = entry[:outcome_summary] && entry[:outcome_summary][:ok]
  if first_fail.nil?
    first_fail = entry unless ok
  elsif ok
    answer = {
      failed: first_fail[:call_id],
      recovered: entry[:call_id],
      seconds: (Time.iso8601(entry[:timestamp]) - Time.iso8601(first_fail[:timestamp])).to_i
    }
    break
  end
end
answer
