history = Array(context[:conversation_history])
children = history.reject { |record|
  record[:parent_call_id].nil? || record[:parent_call_id] == "" || record[:role].nil? || record[:role] == ""
}
children.group_by { |record| record[:parent_call_id] }.transform_values { |recs| recs.map { |r| r[:role] }.tally }
