history = context[:conversation_history] || []
with_depth = history.reject { |h| h[:depth].nil? || !h[:depth].is_a?(Integer) }
firsts = with_depth.uniq { |h| h[:depth] }
summary = firsts.map { |h| [h[:depth], h[:call_id]] }.to_h
max_depth = summary.keys.max
{ first_record_per_depth: summary, deepest: max_depth }
