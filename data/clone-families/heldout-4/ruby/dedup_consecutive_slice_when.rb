MAX_PREVIEW = 3

records = context[:conversation_history] || []
runs = records.slice_when { |x, y| [x[:method], x[:args]] != [y[:method], y[:args]] }.to_a
{
  calls: runs.map { |r| [r[0][:method], r[0][:args]] },
  collapsed: records.size - runs.size,
  preview: records.first(MAX_PREVIEW).map { |r| r[:call_id] }
}
