log = Array(context[:conversation_history])
counts = {}
unless log.empty?
  log.each do |item|
    next unless item.is_a?(Hash)

    up = item[:parent_call_id]
    role = item[:role]
    next if up.nil? || up == "" || role.nil? || role == ""

    counts[up] ||= Hash.new(0)
    counts[up][role] += 1
  end
end
counts
