require "set"

known = Set.new
replies = []
(context[:conversation_history] || []).each do |r|
  body = r[:content]
  replies << r[:call_id] if r[:role] == "assistant" && body.is_a?(String) && known.any? { |s| body.include?(s) }
  next unless r.dig(:outcome_summary, :ok) == true

  s = r.dig(:outcome_summary, :summary).to_s.strip
  known << s unless s.empty?
end
{ replies_quoting_results: replies, distinct_results: known.size }
