log = context.fetch(:conversation_history, nil) || []
per_arg = {}
log.each do |entry|
  summary = entry[:outcome_summary]
  next unless summary && summary[:ok] == false
  next if entry[:method_name].to_s.empty?

  strings = (entry[:args] || []).grep(String)
  strings.uniq.each { |s| per_arg[s] = per_arg.fetch(s, 0) + 1 }
end
top = per_arg.sort_by { |arg, n| [-n, arg] }
Agent::Outcome.ok(top.map { |arg, n| { arg: arg, failed_calls: n } })
