to_time = ->(ts) { Time.utc(*ts.scan(/\d+/).first(6).map(&:to_i)) }

convo = context[:conversation_history] || []
failed = convo.select { |h| h[:outcome_summary] && !h[:outcome_summary][:ok] }

if failed.empty?
  nil
else
  {
    last_error_call: failed.last[:call_id],
    seconds_since: (to_time.(convo.last[:timestamp]) - to_time.(failed.last[:timestamp])).round
  }
end
