history = context[:conversation_history] || []
first_user = history.index { |r| r[:role] == "user" }
turn = []
if first_user
  rest = history.drop(first_user + 1)
  turn = rest.take_while { |r| r[:role] != "user" }
end
turn.filter_map do |record|
  method = record[:method_name]
  [record[:call_id], method] unless method.nil? || method.empty?
end
