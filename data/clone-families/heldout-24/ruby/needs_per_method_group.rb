history = Array(context[:conversation_history])
usable = history.select { |record|
  record[:method_name].is_a?(String) && !record[:method_name].empty? &&
    record[:need].is_a?(String) && !record[:need].empty?
}
needs = usable.group_by { |record| record[:method_name] }.transform_values { |recs| recs.map { |r| r[:need] }.uniq }
Agent::Outcome.ok(needs)
