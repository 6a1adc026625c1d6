log = context[:conversation_history] || []
groups = log.group_by { |rec| rec[:call_id] }
repeated = groups.select { |_, recs| recs.size > 1 }
if repeated.empty?
  "all call ids are unique"
else
  repeated.map { |id, recs| "#{id} appears #{recs.size} times" }.join("\n")
end
