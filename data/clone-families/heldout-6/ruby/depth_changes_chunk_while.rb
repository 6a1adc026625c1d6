history = context[:conversation_history] || []
runs = history.chunk_while { |x, y| x[:depth] == y[:depth] }.to_a
starts = runs.drop(1).map { |run| run.first[:call_id] }
starts.empty? ? "depth never changed" : "depth changed at: #{starts.join(', ')}"
