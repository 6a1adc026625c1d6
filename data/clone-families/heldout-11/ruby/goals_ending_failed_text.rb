def failed?(summary)
  summary[:ok] == false || (summary[:status] && summary[:status] != "ok")
end

history = context[:conversation_history] || []
latest = {}
history.each do |rec|
  next if rec[:goal].to_s.strip.empty? || rec[:outcome_summary].nil?
  latest[rec[:goal]] = rec
end
open_goals = latest.select { |_g, rec| failed?(rec[:outcome_summary]) }
text = if open_goals.empty?
         "no goal is left on a failure"
       else
         open_goals.map { |g, rec| "#{g} (last: #{rec[:method_name] || rec[:role]} failed)" }.join("; ")
       end
Agent::Outcome.ok(text)
