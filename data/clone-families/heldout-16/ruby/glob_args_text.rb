calls = (context[:conversation_history] || []).reject { |c| c[:method_name].to_s.empty? }
lines = calls.filter_map do |c|
  globs = (c[:args] || []).grep(String).select { |s| s.include?("*") && !s.match?(/\s/) }
  "#{c[:call_id]} #{c[:method_name]}: #{globs.join(' ')}" unless globs.empty?
end
Agent::Outcome.ok(lines.empty? ? "No glob patterns were passed." : lines.join("\n"))
