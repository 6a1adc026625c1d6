history = Array(context[:conversation_history])
failures = history.select do |r|
  (r[:outcome_summary] || {})[:ok] == false &&
    !r[:speaker].to_s.empty? &&
    !r[:outcome_summary][:error_type].to_s.empty?
end
failures.group_by { |r| r[:speaker] }
        .transform_values { |rs| rs.map { |r| r[:outcome_summary][:error_type] }.uniq }
