require "time"

log = context.fetch(:conversation_history, nil) || []
times = log.filter_map { |e| e[:timestamp] && Time.parse(e[:timestamp]) }
if times.empty?
  Agent::Outcome.ok({})
else
  cutoff = times.max - 15 * 60
  recent = log.select do |e|
    e[:role] == "tool" && e[:timestamp] && !e[:method_name].to_s.empty? && Time.parse(e[:timestamp]) >= cutoff
  end
  Agent::Outcome.ok(recent.map { |e| e[:method_name] }.tally)
end
