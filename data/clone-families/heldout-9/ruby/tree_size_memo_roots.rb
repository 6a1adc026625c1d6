entries = context[:conversation_history] || []
parent_of = entries.each_with_object({}) { |e, h| h[e[:call_id]] = e[:parent_call_id] }
root_cache = {}
find_root = nil
find_root = proc do |id|
  root_cache[id] ||= begin
    pid = parent_of[id]
    (pid.nil? || pid == "" || !parent_of.key?(pid)) ? id : find_root.call(pid)
  end
end
tally = Hash.new(0)
entries.each { |e| tally[find_root.call(e[:call_id])] += 1 }
Agent::Outcome.ok(tally.map { |root, n| { root: root, size: n } })
