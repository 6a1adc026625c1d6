require "time"

name = kwargs[:method].to_s
times = (context[:conversation_history] || []).filter_map { |e| Time.parse(e[:timestamp]) if e[:method_name].to_s == name }
diffs = times.drop(1).zip(times).map { |later, earlier| later - earlier }
if diffs.empty?
  "#{name}: fewer than two calls"
else
  "#{name}: #{times.size} calls, on average #{(diffs.sum / diffs.size / 60.0).round(2)} min apart"
end
