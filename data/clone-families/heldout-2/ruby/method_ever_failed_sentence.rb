method = args[0] || "deploy_service"
records = context[:conversation_history] || []
bad = records.find do |rec|
  rec[:method_name] == method && rec.fetch(:outcome_summary, {})[:ok] == false
end
result = bad.nil? ? "#{method} has never failed." : "#{method} has failed before."
