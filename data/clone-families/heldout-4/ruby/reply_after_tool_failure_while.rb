log = context[:conversation_history] || []
out = []
k = 1
while k < log.size
  before = log[k - 1]
  now = log[k]
  failed_tool = before[:role] == 'tool' && before[:outcome_summary] && !before[:outcome_summary][:ok]
  out.push(now[:content]) if failed_tool && now[:role] == 'assistant'
  k += 1
end
out.empty? ? 'The assistant never replied right after a failed tool call.' : out.map.with_index(1) { |c, n| "#{n}. #{c}" }.join("\n")
