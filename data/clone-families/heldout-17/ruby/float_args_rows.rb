calls = Array(context[:conversation_history]).reject { |c| c[:method_name].nil? || c[:method_name].empty? }
calls.each_with_object([]) do |call, rows|
  fractional = Array(call[:args]).grep(Float)
  next if fractional.empty?

  rows << { call_id: call[:call_id], method: call[:method_name], floats: fractional }
end
