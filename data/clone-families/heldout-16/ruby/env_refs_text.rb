calls = context[:conversation_history] || []
seen = {}
calls.each do |c|
  next unless c[:method_name] && c[:method_name] != ""

  (c[:args] || []).each do |value|
    next unless value.is_a?(String)

    value.scan(/\$\{?([A-Z_][A-Z0-9_]*)/) do
      (seen[c[:method_name]] ||= []).push(Regexp.last_match(1)).uniq!
    end
  end
end
if seen.empty?
  Agent::Outcome.ok("No environment variables referenced in call arguments.")
else
  Agent::Outcome.ok(seen.map { |m, names| "#{m}: #{names.map { |n| "$#{n}" }.join(' ')}" }.join("\n"))
end
