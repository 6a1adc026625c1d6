require "time"

wanted = kwargs.fetch(:method, nil)
calls = (context[:conversation_history] || []).select { |c| c[:method_name] == wanted }
mean = if calls.size < 2
         nil
       else
         (Time.iso8601(calls.last[:timestamp]) - Time.iso8601(calls.first[:timestamp])) / (calls.size - 1)
       end
{ method: wanted, calls: calls.size, mean_seconds: mean }
