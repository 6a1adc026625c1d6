history = context[:conversation_history] || []
state = history.inject({ turn: nil, winners: {} }) do |acc, rec|
  if rec[:role] == "user"
    acc[:turn] = rec[:call_id]
  elsif acc[:turn] && rec[:role] == "assistant" && rec[:content].is_a?(String)
    current = acc[:winners][acc[:turn]]
    acc[:winners][acc[:turn]] = rec if current.nil? || current[:content].length < rec[:content].length
  end
  acc
end
state[:winners].map { |turn, rec| [turn, rec[:call_id]] }.to_h
