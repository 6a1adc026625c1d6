history = context[:conversation_history] || []
known = history.map { |h| h[:call_id] }
children = Hash.new { |hash, key| hash[key] = [] }
history.each do |h|
  pid = h[:parent_call_id]
  children[pid] << h[:call_id] if pid && known.include?(pid)
end
trees = {}
history.each do |h|
  pid = h[:parent_call_id]
  next if pid && !pid.empty? && known.include?(pid)
  queue = [h[:call_id]]
  count = 0
  until queue.empty?
    current = queue.shift
    count += 1
    queue.concat(children[current])
  end
  trees[h[:call_id]] = count
end
{ tree_sizes: trees, roots: trees.size }
