require "time"

history = context[:conversation_history] || []
user_msgs = history.select { |r| r[:role] == "user" && r[:timestamp] }
user_msgs.each_cons(2)
         .select { |a, b| Time.parse(b[:timestamp]) - Time.parse(a[:timestamp]) <= 10 }
         .map { |_, b| b[:call_id] }
