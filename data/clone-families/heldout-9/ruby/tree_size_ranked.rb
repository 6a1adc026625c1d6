calls = context[:conversation_history] || []
index = {}
calls.each { |c| index[c[:call_id]] = c }
root_for = ->(c) {
  c = index[c[:parent_call_id]] while c[:parent_call_id] && index[c[:parent_call_id]]
  c[:call_id]
}
counts = calls.map(&root_for).tally
ranked = counts.sort_by { |root, n| [-n, root] }
{
  trees: ranked,
  largest: ranked.first && ranked.first[0],
  records: calls.size
}
