history = Array(context[:conversation_history])
deep = history.select { |r| r[:depth].is_a?(Integer) && r[:depth] >= 2 }
failed = deep.select { |r| (r[:outcome_summary] || {})[:ok] == false }
if failed.empty?
  "No failures below the top two levels."
else
  lines = failed.map do |r|
    err = (r[:outcome_summary][:error_type] || "error").to_s
    "#{r[:call_id]} (#{r[:method_name] || 'no method'}) failed at depth #{r[:depth]}: #{err}"
  end
  "#{failed.size} nested failure(s):\n#{lines.join("\n")}"
end
