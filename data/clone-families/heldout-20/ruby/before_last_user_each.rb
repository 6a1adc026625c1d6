history = context[:conversation_history] || []
position = history.rindex { |msg| msg[:role] == "user" }
lead_in = []
unless position.nil?
  ([position - 3, 0].max...position).each do |i|
    lead_in << [history[i][:call_id], history[i][:content]]
  end
end
lead_in
