history = context[:conversation_history] || []
children = Hash.new { |h, k| h[k] = [] }
history.each { |r| children[r[:parent_call_id]] << r unless r[:parent_call_id].nil? || r[:parent_call_id].empty? }
notes = []
children.each do |parent, kids|
  kids.each do |kid|
    next unless kid.dig(:outcome_summary, :ok) == false && !kid[:method_name].to_s.empty?

    twin = kids.find { |k| k[:method_name] == kid[:method_name] && k.dig(:outcome_summary, :ok) == true }
    notes << "#{kid[:call_id]} failed but sibling #{twin[:call_id]} (#{kid[:method_name]}) under #{parent} succeeded" if twin
  end
end
notes.empty? ? "no failure has a successful sibling" : notes.join("\n")
