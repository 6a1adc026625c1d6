calls = (context.fetch(:conversation_history, nil) || []).reject { |c| c[:method_name].to_s.empty? }
calls
  .flat_map { |c| Array(c[:args]) }
  .grep(String)
  .filter_map { |s| s.strip.match(/\A(select|insert|update|delete)\b/i)&.captures&.first&.upcase }
  .tally
