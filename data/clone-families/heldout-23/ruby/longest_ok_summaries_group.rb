history = context.fetch(:conversation_history, nil) || []
eligible = history.select { |record|
  !record[:method_name].to_s.empty? && record.dig(:outcome_summary, :ok) == true && record.dig(:outcome_summary, :summary).is_a?(String)
}
eligible.group_by { |record| record[:method_name] }.transform_values { |calls|
  best = calls.max_by { |record| record.dig(:outcome_summary, :summary).length }
  { call: best[:call_id], summary_length: best.dig(:outcome_summary, :summary).length }
}
