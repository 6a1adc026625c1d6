require "set"

levels = {}
(context[:conversation_history] || []).each { |e| (levels[e[:depth] || 0] ||= Set.new) << e[:method_name] }
levels.sort.map { |depth, names| "depth #{depth}: #{names.to_a.sort.join(', ')}" }
