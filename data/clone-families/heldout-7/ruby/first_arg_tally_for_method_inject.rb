items = context[:conversation_history] || []
m = kwargs[:method]
order = items.inject({}) do |acc, it|
  a = it[:args]
  if it[:method_name] == m && a.is_a?(Array) && !a.empty?
    acc[a[0]] = acc.fetch(a[0], 0) + 1
  end
  acc
end
order.to_a
