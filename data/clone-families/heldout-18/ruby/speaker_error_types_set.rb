require "set"

log = context.fetch(:conversation_history, nil) || []
kinds = log.each_with_object(Hash.new { |h, k| h[k] = Set.new }) do |entry, acc|
  summary = entry[:outcome_summary]
  next unless summary.is_a?(Hash) && summary[:ok] == false
  next if entry[:speaker].to_s.empty? || summary[:error_type].to_s.empty?

  acc[entry[:speaker]] << summary[:error_type]
end
Agent::Outcome.ok(kinds.sort.to_h { |speaker, set| [speaker, set.to_a.sort] })
