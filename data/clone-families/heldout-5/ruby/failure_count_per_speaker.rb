history = context[:conversation_history] || []

totals = Hash.new(0)
failures = Hash.new(0)
history.each do |rec|
  totals[rec[:speaker]] += 1
  failures[rec[:speaker]] += 1 unless rec.dig(:outcome_summary, :ok)
end

totals.to_h { |speaker, _n| [speaker, failures[speaker]] }
