history = context[:conversation_history] || []
ports = history
        .select { |record| record[:content].is_a?(String) }
        .flat_map { |record| record[:content].scan(/\b(?:localhost|127\.0\.0\.1):(\d{2,5})\b/).flatten }
        .map(&:to_i)
ports.uniq
