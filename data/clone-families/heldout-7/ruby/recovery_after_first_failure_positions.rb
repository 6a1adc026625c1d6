require "time"

calls = context[:conversation_history] || []
fail_i = nil
ok_i = nil
calls.each_with_index do |c, i|
  good = c.dig(:outcome_summary, :ok) == true
  if fail_i.nil? && !good
    fail_i = i
  elsif fail_i && good && ok_i.nil?
    ok_i = i
  end
end
secs = ok_i && (Time.parse(calls[ok_i][:timestamp]) - Time.parse(calls[fail_i][:timestamp]))
failures_before_fix = ok_i ? calls[fail_i...ok_i].count { |c| c.dig(:outcome_summary, :ok) != true } : nil
Agent::Outcome.ok({ seconds: secs, failures_before_fix: failures_before_fix })
