history = context[:conversation_history] || []
failed = ->(r) { r.dig(:outcome_summary, :ok) != true }
first = history.index(&failed)
last = history.rindex(&failed)
if first.nil? || first == last
  0
else
  history[(first + 1)...last].count { |r| !failed.(r) }
end
