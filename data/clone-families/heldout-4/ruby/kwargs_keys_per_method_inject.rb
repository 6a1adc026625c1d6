records = context[:conversation_history] || []
table = records.inject({}) do |memo, r|
  names = (r[:kwargs] || {}).keys.map(&:to_s)
  memo.merge(r[:method] => ((memo[r[:method]] || []) + names).uniq)
end
{
  kwargs_by_method: table.map { |m, ks| { method: m, keys: ks.sort } },
  methods_without_kwargs: table.select { |_, ks| ks.empty? }.keys.sort
}
