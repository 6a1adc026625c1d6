require "set"

history = context[:conversation_history] || []
known = Set.new(%w[ok error timeout cancelled])
tally = history.inject({}) { |memo, rec|
  st = (rec[:outcome_summary] || {}).fetch(:status, "unknown")
  memo.merge(st => memo.fetch(st, 0) + 1)
}
unexpected = tally.keys.reject { |k| known.include?(k) }
{ counts: tally, unexpected_statuses: unexpected }
