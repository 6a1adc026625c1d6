log = context[:conversation_history] || []
pairs = log.flat_map { |entry| entry[:kwargs].is_a?(Hash) ? entry[:kwargs].to_a : [] }
grouped = pairs.group_by(&:first).transform_values { |kvs| kvs.map { |_, v| v.class.to_s }.uniq.sort }
mixed = grouped.select { |_k, names| names.size > 1 }.keys
Agent::Outcome.ok(types_per_key: grouped, inconsistent_keys: mixed)
