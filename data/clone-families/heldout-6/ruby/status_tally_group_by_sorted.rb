records = context[:conversation_history] || []
records
  .group_by { |rec| rec.dig(:outcome_summary, :status).to_s }
  .transform_values(&:size)
  .sort_by { |status, n| [-n, status] }
