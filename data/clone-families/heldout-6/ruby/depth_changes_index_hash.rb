recs = context[:conversation_history] || []
shifts = []
recs.each_with_index do |rec, i|
  next if i.zero?
  before = recs[i - 1][:depth] || 0
  after = rec[:depth] || 0
  shifts << { call_id: rec[:call_id], from: before, to: after } unless before == after
end
{ changes: shifts, count: shifts.length }
