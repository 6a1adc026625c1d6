log = context[:conversation_history] || []
segments = log.slice_when { |a, b| (a[:role] == "tool") != (b[:role] == "tool") }
segments.select { |seg| seg.first[:role] == "tool" }.map do |seg|
  { starts_at: seg.first[:call_id], length: seg.length }
end
