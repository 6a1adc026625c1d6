keys = [:conversation_history, :memory, :value]
result = keys.map(&:to_s).select { |k| context.key?(k.to_sym) }
