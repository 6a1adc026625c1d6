records = context[:conversation_history] || []
candidates = records.filter { |r| r[:kwargs].is_a?(Hash) && r[:kwargs].key?(:timeout) }
newest = candidates.max_by { |r| r[:timestamp] }
result = newest.nil? ? "timeout was never set" : "timeout = #{newest[:kwargs][:timeout]}"
