records = context[:conversation_history] || []
matrix, _last = records.inject([Hash.new(0), nil]) do |(acc, prev), r|
  status = r[:outcome_summary][:status]
  acc[[prev, status]] += 1 unless prev.nil?
  [acc, status]
end
{ transitions: matrix.map { |(f, t), n| ["#{f}->#{t}", n] }.to_h, records: records.size }
