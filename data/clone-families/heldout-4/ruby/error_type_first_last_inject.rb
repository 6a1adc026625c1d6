require 'time'

records = context[:conversation_history] || []
window = records.inject({}) do |memo, r|
  et = r[:outcome_summary]&.fetch(:error_type, nil)
  next memo unless et
  prev = memo[et]
  memo.merge(et => [prev ? prev[0] : r[:timestamp], r[:timestamp]])
end
window.transform_values { |a, b| { first: a, last: b, span_s: (Time.iso8601(b) - Time.iso8601(a)).to_i } }
