require "time"

history = context[:conversation_history] || []
summary = history.each_with_object({}) do |rec, acc|
  next if rec[:method_name].nil? || rec[:method_name].strip.empty?
  acc[rec[:method_name]] = { last_call: rec[:call_id], at: Time.parse(rec[:timestamp]).to_f }
end
tail = history.empty? ? 0 : Time.parse(history[-1][:timestamp]).to_f
summary.each_value { |info| info[:idle_seconds] = (tail - info.delete(:at)).round }
summary
