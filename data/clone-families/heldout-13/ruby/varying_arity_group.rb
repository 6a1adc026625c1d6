calls = (context[:conversation_history] || []).reject { |c| c[:method_name].to_s.empty? }
inconsistent = calls.group_by { |c| c[:method_name] }
                    .transform_values { |cs| cs.map { |c| Array(c[:args]).size }.uniq.sort }
                    .reject { |_name, counts| counts.one? }
Agent::Outcome.ok(inconsistent)
