def failed_tool?(entry)
  entry[:role] == 'tool' && entry.fetch(:outcome_summary, {})[:ok] == false
end

records = context[:conversation_history] || []
pairs = records.zip(records.drop(1))
answers = pairs.filter_map do |a, b|
  b[:content] if b && failed_tool?(a) && b[:role] == 'assistant'
end
{ replies_after_failure: answers, count: answers.length }
