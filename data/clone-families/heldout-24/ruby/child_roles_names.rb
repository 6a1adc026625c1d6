entries = Array(context[:conversation_history])
per_parent = {}
entries.each do |entry|
  kind = entry[:role]
  owner = entry[:parent_call_id]
  next if owner.nil? || owner == "" || kind.nil? || kind == ""

  per_parent[owner] ||= Hash.new(0)
  per_parent[owner][kind] += 1
end
per_parent
