require "time"

recs = context[:conversation_history] || []
idx = recs.rindex { |r| r[:outcome_summary][:status] == "error" }

if idx.nil?
  "no errors so far"
else
  secs = Time.parse(recs[-1][:timestamp]) - Time.parse(recs[idx][:timestamp])
  "#{secs.to_i}s since the last error (#{recs[idx][:outcome_summary][:error_type]})"
end
