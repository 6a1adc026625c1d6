# Role profile constraint: arithmetic_shape applies to all methods except "history"
current = context[:memory] || 0
delta = kwargs[:amount] || args.first || 0
context[:memory] = current + delta.to_f
result = context[:memory]
