require "set"

records = context[:conversation_history] || []
per_turn = records.slice_before { |r| r[:role] == "user" }
                  .select { |chunk| chunk.first[:role] == "user" }
                  .map { |chunk| chunk.map { |r| r[:method_name] }.reject { |m| m.nil? || m.empty? }.to_set }
always = per_turn.inject(:&) || Set.new
always.to_a.sort
